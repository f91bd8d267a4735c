/**
 * Grounding checks after generation, for every engine (a server that took no grammar, a reply replayed): a path that
 * must exist is one of the vault's paths (else the nearest ones are offered), a path that must be new is not taken,
 * and an edit's text comes from a note the agent has read, as the note is now.
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
 * One sentence when an edit's text cannot be trusted; null when it may run. `seen` is the note's text when the agent
 * last read it in this conversation (undefined: never), `now` its current text.
 */
export function checkNoteEdit(def: ToolDefinition, path: string, args: Record<string, unknown>, seen: string | undefined, now: string | null): string | null {
  const key = def.noteArgs?.find;
  if (!key || now === null) return null;
  if (seen === undefined) return `Read "${path}" with vault:read before editing it: ${def.name} replaces text copied from the note, so nothing was changed.`;
  const find = args[key];
  if (typeof find === "string" && seen !== now && !now.includes(find)) {
    return `"${path}" changed after you read it and the text to find is no longer in it; read it again before editing (nothing was changed).`;
  }
  return null;
}
