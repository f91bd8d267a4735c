/**
 * Lists that cross a process or thread boundary as one string each (the text index's paths and hashes, the vector
 * index's ids): one copy, where 50,000 small objects were 50,000 to build on the receiving main thread. Kept apart from
 * the index code, which main.js does not carry.
 */

/** Separates the items (a path, an id or a hash never holds a NUL). */
export const LIST_SEPARATOR = "\u0000";

/**
 * The path -> hash pairs of a "text.open" answer (`list`, alternating paths and hashes, or an older host's `hashes`
 * object), read 4,096 pairs at a time with `pause` between (50,000 pairs in one go held the thread tens of ms).
 */
export async function openedHashes(result: { list?: string; hashes?: Record<string, string> }, pause: () => Promise<void> = () => Promise.resolve()): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (typeof result.list !== "string") {
    for (const [p, h] of Object.entries(result.hashes ?? {})) out.set(p, h);
    return out;
  }
  const list = result.list;
  let from = 0;
  let n = 0;
  while (from < list.length) {
    const mid = list.indexOf(LIST_SEPARATOR, from);
    if (mid < 0) break;
    const end = list.indexOf(LIST_SEPARATOR, mid + 1);
    const stop = end < 0 ? list.length : end;
    out.set(list.slice(from, mid), list.slice(mid + 1, stop));
    from = stop + 1;
    if ((++n & 4095) === 0) await pause();
  }
  return out;
}
