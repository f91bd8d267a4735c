/**
 * Frontmatter: the `---` YAML block at the top of a note. A small YAML subset that covers what
 * Obsidian's Properties editor writes: scalars, quoted strings, flow lists `[a, b]`, block lists
 * `- a`, and nested maps by indentation. Anything else is kept as a plain string, never dropped.
 */

/** A note split into its frontmatter block and its body. */
export interface FrontmatterSplit {
  /** The YAML text between the fences, or null when the note has no frontmatter. */
  yaml: string | null;
  /** The text after the closing fence (the whole text when there is no frontmatter). */
  body: string;
  /** 0-based line where the body starts. */
  bodyLine: number;
}

const FENCE = /^---[ \t]*$/;

export function splitFrontmatter(text: string): FrontmatterSplit {
  const lines = text.split("\n");
  if (lines.length < 2 || !FENCE.test(lines[0].replace(/\r$/, ""))) return { yaml: null, body: text, bodyLine: 0 };
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "");
    if (FENCE.test(line) || line === "...") {
      return { yaml: lines.slice(1, i).join("\n"), body: lines.slice(i + 1).join("\n"), bodyLine: i + 1 };
    }
  }
  return { yaml: null, body: text, bodyLine: 0 };
}

/** Parses the YAML subset; unparseable lines are skipped rather than failing the note. */
export function parseYaml(yaml: string): Record<string, unknown> {
  const lines = yaml
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
  const [value] = parseBlock(lines, 0, 0);
  return isRecord(value) ? value : {};
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Parses lines at `indent` starting at `start`; returns the value and the next unread line. */
function parseBlock(lines: string[], start: number, indent: number): [unknown, number] {
  if (start >= lines.length) return [null, start];
  if (lines[start].trimStart().startsWith("- ") || lines[start].trim() === "-") return parseList(lines, start, indentOf(lines[start]));
  const map: Record<string, unknown> = {};
  let i = start;
  while (i < lines.length) {
    const line = lines[i];
    const ind = indentOf(line);
    if (ind < indent) break;
    if (ind > indent) {
      i++;
      continue;
    }
    const m = /^\s*("[^"]*"|'[^']*'|[^:#][^:]*?)\s*:(?:\s+(.*))?$/.exec(line);
    if (!m) {
      i++;
      continue;
    }
    const key = unquote(m[1]);
    const rest = (m[2] ?? "").trim();
    i++;
    if (rest === "" || rest === "|" || rest === ">" || rest === "|-" || rest === ">-") {
      if (rest.startsWith("|") || rest.startsWith(">")) {
        const block: string[] = [];
        while (i < lines.length && indentOf(lines[i]) > indent) block.push(lines[i++].trim());
        map[key] = rest.startsWith("|") ? block.join("\n") : block.join(" ");
      } else if (i < lines.length && (indentOf(lines[i]) > indent || lines[i].trimStart().startsWith("- "))) {
        const childIndent = indentOf(lines[i]);
        const [value, next] = parseBlock(lines, i, childIndent);
        map[key] = value;
        i = next;
      } else {
        map[key] = null;
      }
    } else {
      map[key] = parseScalar(rest);
    }
  }
  return [map, i];
}

function parseList(lines: string[], start: number, indent: number): [unknown[], number] {
  const list: unknown[] = [];
  let i = start;
  while (i < lines.length) {
    const line = lines[i];
    const ind = indentOf(line);
    const trimmed = line.trim();
    if (ind < indent || (ind === indent && !(trimmed.startsWith("- ") || trimmed === "-"))) break;
    if (ind > indent) {
      i++;
      continue;
    }
    list.push(trimmed === "-" ? null : parseScalar(trimmed.slice(2).trim()));
    i++;
  }
  return [list, i];
}

/** One scalar or flow list. */
export function parseScalar(raw: string): unknown {
  const text = stripComment(raw).trim();
  if (text === "" || text === "~" || text === "null") return null;
  if (text === "true") return true;
  if (text === "false") return false;
  if ((text.startsWith('"') && text.endsWith('"')) || (text.startsWith("'") && text.endsWith("'"))) return unquote(text);
  if (text.startsWith("[") && text.endsWith("]")) {
    const inner = text.slice(1, -1).trim();
    return inner === "" ? [] : splitFlow(inner).map((p) => parseScalar(p));
  }
  if (/^-?\d+(\.\d+)?$/.test(text) && !/^-?0\d/.test(text)) return Number(text);
  return text;
}

function stripComment(text: string): string {
  if (text.startsWith('"') || text.startsWith("'")) return text;
  const idx = text.search(/\s#/);
  return idx >= 0 ? text.slice(0, idx) : text;
}

function splitFlow(inner: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = "";
  for (const ch of inner) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "[") depth++;
    else if (ch === "]") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(current.trim());
      current = "";
      continue;
    }
    current += ch;
  }
  if (current.trim() !== "") parts.push(current.trim());
  return parts;
}

function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    return text.slice(1, -1).replace(/\\"/g, '"').replace(/\\n/g, "\n").replace(/\\\\/g, "\\");
  }
  if (text.length >= 2 && text.startsWith("'") && text.endsWith("'")) return text.slice(1, -1).replace(/''/g, "'");
  return text;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Writes the object back as YAML in the style Obsidian's Properties editor uses (block lists). */
export function stringifyYaml(data: Record<string, unknown>, indent = 0): string {
  const pad = " ".repeat(indent);
  const out: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue;
    const k = /^[\w][\w .-]*$/.test(key) ? key : JSON.stringify(key);
    if (Array.isArray(value)) {
      if (value.length === 0) out.push(`${pad}${k}: []`);
      else {
        out.push(`${pad}${k}:`);
        for (const item of value) out.push(`${pad}  - ${formatScalar(item)}`);
      }
    } else if (isRecord(value)) {
      out.push(`${pad}${k}:`);
      out.push(stringifyYaml(value, indent + 2));
    } else {
      out.push(`${pad}${k}: ${formatScalar(value)}`);
    }
  }
  return out.filter((l) => l !== "").join("\n");
}

function formatScalar(value: unknown): string {
  if (value === null) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "string") {
    const needsQuotes =
      value === "" ||
      /^[\s\-?:,[\]{}#&*!|>'"%@`]/.test(value) ||
      /:\s|\s#|\n/.test(value) ||
      /\s$/.test(value) ||
      /^(true|false|null|~|-?\d+(\.\d+)?)$/.test(value);
    return needsQuotes ? JSON.stringify(value) : value;
  }
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** The note's text with its frontmatter replaced (or added) by this object; an empty object removes the block. */
export function withFrontmatter(text: string, data: Record<string, unknown>): string {
  const { yaml, body } = splitFrontmatter(text);
  const rest = yaml === null ? text : body;
  const keys = Object.keys(data).filter((k) => data[k] !== undefined);
  if (keys.length === 0) return rest;
  return `---\n${stringifyYaml(data)}\n---\n${rest}`;
}

/**
 * Sets (or, with `undefined`, removes) one top-level key, leaving every other line of the
 * frontmatter exactly as the user wrote it. Adds a frontmatter block when there is none.
 */
export function setFrontmatterKey(text: string, key: string, value: unknown): string {
  const { yaml, body } = splitFrontmatter(text);
  const rendered = value === undefined ? [] : stringifyYaml({ [key]: value }).split("\n");
  if (yaml === null) return rendered.length === 0 ? text : `---\n${rendered.join("\n")}\n---\n${text}`;
  const lines = yaml === "" ? [] : yaml.split("\n");
  const keyPattern = new RegExp(`^(["']?)${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\1\\s*:(\\s|$)`);
  const start = lines.findIndex((l) => keyPattern.test(l));
  if (start < 0) {
    lines.push(...rendered);
  } else {
    let end = start + 1;
    // The key's value continues on indented lines and "- item" lines.
    while (end < lines.length && (/^\s+\S/.test(lines[end]) || /^-\s/.test(lines[end]) || lines[end].trim() === "")) end++;
    lines.splice(start, end - start, ...rendered);
  }
  return `---\n${lines.join("\n")}${lines.length ? "\n" : ""}---\n${body}`;
}
