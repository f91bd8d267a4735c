/**
 * Lists that cross a process or thread boundary as one string each (the text index's paths and hashes, the vector
 * index's ids): one copy, where 50,000 small objects were 50,000 to build on the receiving main thread. Kept apart from
 * the index code, which main.js does not carry.
 */

/** Separates the items (a path, an id or a hash never holds a NUL). */
export const LIST_SEPARATOR = "\u0000";

/** The path -> hash pairs of a "text.open" answer (`list`, alternating paths and hashes, or an older host's `hashes` object). */
export function openedHashes(result: { list?: string; hashes?: Record<string, string> }): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof result.list === "string") {
    if (result.list === "") return out;
    const parts = result.list.split(LIST_SEPARATOR);
    for (let i = 0; i + 1 < parts.length; i += 2) out.set(parts[i], parts[i + 1]);
    return out;
  }
  for (const [p, h] of Object.entries(result.hashes ?? {})) out.set(p, h);
  return out;
}
