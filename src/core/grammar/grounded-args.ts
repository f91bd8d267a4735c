/**
 * Grounded args: a tool's args schema rewritten into variants whose path-dependent values are placeholders, compiled
 * by the ordinary schema compiler (which keeps `path` before its dependants: members follow the declared order), and
 * the placeholders then replaced by references to the vault's rules (vault-paths.ts, note-text.ts).
 *
 * - The generic variant: every existing-path arg is one of the vault's paths (the path rule), or of its files of the
 *   arg's kinds (a kind rule: `pdf:read`'s path is one of the vault's PDFs); when the tool also has a heading or find
 *   arg, its `path` is one of the paths outside the conversation's context (the "other" rule). A note outside context
 *   has no known headings or keys, so `heading` and `key` stay free text there (the tool answers a miss with the
 *   note's headings or keys): a section or one property of a note not yet read is the cheap call, and reference
 *   plans make it.
 * - One variant per note in context: `path` is that note (with or without `.md`), `heading` one of its headings,
 *   `find` one of its texts, and a property `key` one of its properties' keys.
 * - Tag args name one of the vault's tags (the tag rule, vault-tags.ts), in every variant. The variants' path sets are disjoint, so every call names what exists.
 */
import type { GrammarTool, JsonSchema, ToolGrounding } from "./types";
import type { VaultPathIndex } from "./vault-paths";

/** A note in the conversation's context as the grammar needs it. */
export interface GroundedNote {
  path: string;
  /** Its headings' texts. */
  headings: string[];
  /** Its properties' keys. */
  keys?: string[];
  /** Whether a text rule exists for it (notes too long have none: `find` stays free text there). */
  text: boolean;
}

/** What an envelope compile grounds. */
export interface EnvelopeGrounding {
  /** Whether the vault has any admissible path (else path args stay free text and the gatekeeper refuses). */
  paths: boolean;
  /** Whether any path remains outside the notes in context. */
  other: boolean;
  /** Whether the vault has tags (else tag args stay free text). */
  tags?: boolean;
  /**
   * Kinds of file the vault has none of (extensions joined by `K`, as in the placeholder): a tool whose required path
   * names such a file cannot be called (it is left out of the envelope), an optional one is left out of its args.
   */
  absentKinds?: string[];
  notes: GroundedNote[];
}

/** The placeholder texts; letters only, so each prints unchanged inside a GBNF literal. */
export const PLACEHOLDER = {
  path: "QQgroundedpathQQ",
  other: "QQgroundedotherQQ",
  tag: "QQgroundedtagQQ",
  text: (i: number) => `QQgroundedtext${i}QQ`,
  /** The vault's files of these extensions (lower-case letters and digits, joined by `K`). */
  kind: (extensions: readonly string[]) => `QQgroundedkind${extensions.join("K")}QQ`,
} as const;

/** A kind placeholder; its first group is the extensions joined by `K`. */
export const KIND_PLACEHOLDER = /QQgroundedkind([a-z0-9K]+)QQ/g;

/** The extensions a kind placeholder stands for, or null when the text is not one. */
export function placeholderKinds(text: unknown): string[] | null {
  const m = typeof text === "string" ? /^QQgroundedkind([a-z0-9K]+)QQ$/.exec(text) : null;
  return m ? m[1].split("K") : null;
}

/** The placeholder of an existing-path arg outside the notes in context: its kinds, else the vault's paths. */
function pathPlaceholder(g: ToolGrounding, key: string): string {
  const kinds = g.kinds?.[key];
  return kinds?.length ? PLACEHOLDER.kind(kinds) : PLACEHOLDER.path;
}

/** Longest heading the tools' heading arg allows. */
const MAX_HEADING_CHARS = 200;
/** Longest property key the tools' key arg allows. */
const MAX_KEY_CHARS = 100;

/** The kinds the offered tools' paths name that the vault has no file of (for EnvelopeGrounding.absentKinds). */
export function absentKinds(tools: GrammarTool[], paths: VaultPathIndex): string[] {
  if (!paths.ready) return [];
  const kinds = new Set(tools.flatMap((t) => Object.values(t.grounding?.kinds ?? {}).map((k) => k.join("K"))));
  return [...kinds].filter((k) => paths.ofKind(k.split("K")).size === 0).sort();
}

/**
 * Whether a call of the tool can name what it needs: not when a required path arg names a kind of file the vault has
 * none of (a vault without PDFs offers no pdf:read; such a call could only fail). Such a tool is left out of the
 * envelope, and comes back with the first file of its kind.
 */
export function callable(schema: JsonSchema, g: ToolGrounding, grounding: EnvelopeGrounding): boolean {
  if (!grounding.paths || !grounding.absentKinds?.length || typeof schema !== "object") return true;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return !Object.entries(g.kinds ?? {}).some(([key, kinds]) => required.includes(key) && grounding.absentKinds!.includes(kinds.join("K")));
}

/** The args schemas whose union is the tool's grounded args (empty when nothing is grounded). */
export function groundedVariants(schema: JsonSchema, g: ToolGrounding, grounding: EnvelopeGrounding): JsonSchema[] {
  if (typeof schema !== "object") return [];
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const tagKeys = grounding.tags ? (g.tags ?? []).filter((k) => k in props) : [];
  if (!grounding.paths) return tagKeys.length ? [withTags({ ...schema, properties: { ...props } }, tagKeys)] : [];
  const dependants = [g.heading, g.find, g.key].filter((k): k is string => !!k && k in props);
  const withNotes = dependants.length > 0 && "path" in props && g.existingPaths.includes("path") && grounding.notes.length > 0;
  const variants: JsonSchema[] = [];
  if (!withNotes || grounding.other) {
    const p = { ...props };
    for (const key of g.existingPaths) if (key in p) p[key] = { ...p[key], const: withNotes && key === "path" ? PLACEHOLDER.other : pathPlaceholder(g, key) };
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    // An optional path of a kind the vault lacks (base:query's base): the call goes without it.
    for (const [key, kinds] of Object.entries(g.kinds ?? {})) if (key in p && !required.includes(key) && grounding.absentKinds?.includes(kinds.join("K"))) delete p[key];
    variants.push(withTags({ ...schema, properties: p }, tagKeys));
  }
  if (!withNotes) return variants;
  grounding.notes.forEach((note, i) => {
    const p = { ...props };
    const required = Array.isArray(schema.required) ? [...(schema.required as string[])] : [];
    const stem = note.path.endsWith(".md") ? note.path.slice(0, -3) : null;
    p.path = { ...p.path, enum: stem && !/\.[A-Za-z0-9]{1,5}$/.test(stem.split("/").pop() ?? "") ? [note.path, stem] : [note.path] };
    for (const key of g.existingPaths) if (key !== "path" && key in p) p[key] = { ...p[key], const: pathPlaceholder(g, key) };
    if (g.heading && g.heading in p) {
      const heads = [...new Set(note.headings.filter((h) => h.trim() !== "" && [...h].length <= MAX_HEADING_CHARS))];
      if (heads.length) p[g.heading] = { ...p[g.heading], enum: heads };
      else if (required.includes(g.heading)) return;
      else delete p[g.heading];
    }
    if (g.key && g.key in p) {
      const keys = [...new Set((note.keys ?? []).filter((k) => k.trim() !== "" && [...k].length <= MAX_KEY_CHARS))];
      if (keys.length) p[g.key] = { ...p[g.key], enum: keys };
      else if (required.includes(g.key)) return;
      else delete p[g.key];
    }
    if (g.find && g.find in p && note.text) p[g.find] = { ...p[g.find], const: PLACEHOLDER.text(i) };
    variants.push(withTags({ ...schema, properties: p }, tagKeys));
  });
  return variants;
}

/** The variant with each tag arg standing for the vault's tag rule (its properties object is the variant's own). */
function withTags(schema: Exclude<JsonSchema, boolean>, keys: string[]): JsonSchema {
  const p = schema.properties as Record<string, Record<string, unknown>>;
  for (const key of keys) p[key] = { ...p[key], const: PLACEHOLDER.tag };
  return schema;
}

/** Printed rules admitting the vault's files of some extensions (VaultPathIndex.ofKind(...).rules()), or null: none. */
export type KindRules = (extensions: string[]) => { root: string; text: string } | null;

/**
 * Replaces the placeholders in printed GBNF by references to the rules that admit the real values. A kind placeholder
 * becomes its kind's rule (printed once at the end). A kind the vault lacks leaves no placeholder (its tools are not
 * offered, its optional args left out: `callable`); should one remain (no `kind` given), the arg admits any of the
 * vault's paths and the gatekeeper refuses the wrong kind with one sentence.
 */
export function substitutePlaceholders(gbnf: string, rules: { path?: string; other?: string; tag?: string; texts: (string | undefined)[]; kind?: KindRules }): string {
  let out = gbnf;
  const extra: string[] = [];
  for (const joined of new Set([...gbnf.matchAll(KIND_PLACEHOLDER)].map((m) => m[1]))) {
    const kind = rules.kind?.(joined.split("K")) ?? null;
    const name = kind?.root ?? rules.path;
    if (kind) extra.push(kind.text);
    if (name) out = out.split(PLACEHOLDER.kind(joined.split("K"))).join(`" ${name} "`);
  }
  if (rules.tag) out = out.split(PLACEHOLDER.tag).join(`" ${rules.tag} "`);
  if (rules.path) out = out.split(PLACEHOLDER.path).join(`" ${rules.path} "`);
  if (rules.other) out = out.split(PLACEHOLDER.other).join(`" ${rules.other} "`);
  rules.texts.forEach((name, i) => {
    if (name) out = out.split(PLACEHOLDER.text(i)).join(`" ${name} "`);
  });
  if (extra.length) out = `${out.endsWith("\n") ? out : `${out}\n`}${extra.join("")}`;
  return out;
}
