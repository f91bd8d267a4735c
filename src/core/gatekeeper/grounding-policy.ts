/**
 * Grounding checks after generation, for every engine (a server that took no grammar, a reply replayed): a path that
 * must exist is one of the vault's paths (else the nearest ones are offered) and of its arg's kind where it has one
 * (else the nearest files of that kind), a path that must be new is not taken, and an edit's text comes from a note
 * the agent has read, as the note is now.
 */
import type { ToolDefinition } from "../protocol/tool";
import type { VaultPathIndex } from "../grammar/vault-paths";

/** The vault path a tool would reach for a path the model wrote: `[[links]]` unwrapped, `.md` added when missing. */
export function resolveToolPath(paths: VaultPathIndex, value: string): string | null {
  const link = /^!?\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/.exec(value.trim());
  return paths.resolve(link ? link[1].trim() : value);
}

function quoteList(items: string[]): string {
  const q = items.map((p) => `"${p}"`);
  return q.length <= 1 ? q.join("") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}

/** One sentence when a path arg misses the vault (or takes a path that must be new); null when the call may run. */
export function checkPathsExist(def: ToolDefinition, args: Record<string, unknown>, paths: VaultPathIndex): string | null {
  if (!paths.ready) return null;
  for (const key of def.existingPaths ?? []) {
    const value = args[key];
    const kinds = def.pathKinds?.[key];
    if (kinds?.length) {
      if (typeof value !== "string" || value === "") continue;
      const refusal = checkKind(def.name, value, kinds, paths);
      if (refusal) return refusal;
      continue;
    }
    if (typeof value !== "string" || value === "" || resolveToolPath(paths, value) !== null) continue;
    const near = paths.nearest(value, 3);
    return near.length
      ? `There is no note at "${value}"; the nearest existing paths are ${quoteList(near)}, so call ${def.name} again with one of them.`
      : `There is no note at "${value}" and the vault has no notes the agent may use.`;
  }
  for (const key of def.newPaths ?? []) {
    const value = args[key];
    if (typeof value !== "string" || value === "") continue;
    const taken = resolveToolPath(paths, value);
    if (taken !== null) return `"${taken}" already exists and ${def.name} never overwrites a note; choose another name (nothing was changed).`;
  }
  return null;
}

/**
 * One sentence when a path that must name a file of some kinds (a PDF, a base, a canvas) does not name one: another
 * kind of file, or a missing path, is refused with the nearest files of the right kind; null when the call may run.
 * A name without an extension reaches the file of the kind (as the tools add `.pdf`, `.base`, `.canvas`).
 */
export function checkKind(tool: string, value: string, kinds: readonly string[], paths: VaultPathIndex): string | null {
  const link = /^!?\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/.exec(value.trim());
  const path = link ? link[1].trim() : value;
  const view = paths.ofKind(kinds);
  if (view.has(path)) return null;
  const name = path.split("/").pop() ?? path;
  if (!/\.[A-Za-z0-9]{1,10}$/.test(name) && kinds.some((k) => view.has(`${path}.${k}`))) return null;
  const kind = kinds.map((k) => `.${k}`).join(" or ");
  const other = paths.resolve(path);
  const what = other !== null ? `"${other}" is not a ${kind} file` : `There is no ${kind} file at "${value}"`;
  const near = view.nearest(path, 3);
  return near.length
    ? `${what}; the nearest ${kind} files are ${quoteList(near)}, so call ${tool} again with one of them.`
    : `${what} and the vault has no ${kind} file, so ${tool} cannot be used here.`;
}

/**
 * One sentence when an edit's text cannot be trusted; null when it may run. `seen` is the note's text when the agent
 * last read it in this conversation (undefined: never), `now` its current text. Text that is not in the note (an
 * engine that could not constrain `find`, such as an OpenAI-compatible server) is refused with the note's nearest
 * lines, so the next call can copy them exactly.
 */
export function checkNoteEdit(def: ToolDefinition, path: string, args: Record<string, unknown>, seen: string | undefined, now: string | null): string | null {
  const key = def.noteArgs?.find;
  if (!key || now === null) return null;
  if (seen === undefined) return `Read "${path}" with vault:read before editing it: ${def.name} replaces text copied from the note, so nothing was changed.`;
  const find = args[key];
  if (typeof find === "string" && seen !== now && !now.includes(find)) {
    return `"${path}" changed after you read it and the text to find is no longer in it; read it again before editing (nothing was changed).`;
  }
  if (typeof find === "string" && find !== "" && !now.includes(find)) {
    const near = nearestLines(now, find, 2);
    const offer = near.length ? `; the nearest ${near.length > 1 ? "lines are" : "line is"} ${near.map((l) => JSON.stringify(l)).join(" and ")}, so call ${def.name} again with ${key} copied exactly from the note` : "";
    return `The text to find does not occur in "${path}"${offer} (nothing was changed).`;
  }
  return null;
}

/** Longest line offered back (a longer one is cut, with "…"). */
const MAX_OFFERED_CHARS = 200;

/**
 * The note's runs of lines (as many lines as `find` has, at most three) most like `find`, best first: by the share of
 * character pairs they have in common (case-insensitive), runs with none left out.
 */
export function nearestLines(text: string, find: string, k: number): string[] {
  const lines = text.split("\n");
  const span = Math.min(3, Math.max(1, find.replace(/\n+$/, "").split("\n").length));
  const want = pairs(find);
  const scored: { run: string; score: number; at: number }[] = [];
  for (let i = 0; i + span <= lines.length; i++) {
    const run = lines.slice(i, i + span).join("\n");
    if (run.trim() === "") continue;
    const score = dice(want, pairs(run));
    if (score > 0) scored.push({ run, score, at: i });
  }
  scored.sort((a, b) => b.score - a.score || a.at - b.at);
  const out: string[] = [];
  for (const s of scored) {
    const shown = [...s.run].length > MAX_OFFERED_CHARS ? `${[...s.run].slice(0, MAX_OFFERED_CHARS).join("")}…` : s.run;
    if (!out.includes(shown)) out.push(shown);
    if (out.length >= k) break;
  }
  return out;
}

/** The text's adjacent character pairs, lower-cased, with their counts. */
function pairs(text: string): Map<string, number> {
  const chars = [...text.toLowerCase()];
  const out = new Map<string, number>();
  for (let i = 0; i + 1 < chars.length; i++) out.set(chars[i] + chars[i + 1], (out.get(chars[i] + chars[i + 1]) ?? 0) + 1);
  return out;
}

/** Sørensen–Dice similarity of two pair multisets (0..1). */
function dice(a: Map<string, number>, b: Map<string, number>): number {
  let common = 0;
  let total = 0;
  for (const n of a.values()) total += n;
  for (const n of b.values()) total += n;
  for (const [p, n] of a) common += Math.min(n, b.get(p) ?? 0);
  return total ? (2 * common) / total : 0;
}
