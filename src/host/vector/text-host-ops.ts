/**
 * Full-text index operations the engine host serves, one TextIndex per index folder, so minisearch's
 * memory and garbage-collection pauses stay out of Obsidian's renderer. Every op takes `{folder}`:
 * the absolute folder where the index files live.
 */
import { TextIndex } from "../../core/memory/text-index";
import { FolderIndexStore } from "./folder-index-store";

interface Entry {
  index: TextIndex;
  store: FolderIndexStore;
  loaded: Promise<boolean>;
}

const KEY = "text-index.json";
const indexes = new Map<string, Entry>();

function entryFor(raw: unknown, op: string): Entry {
  const folder = (raw as { folder?: unknown } | null)?.folder;
  if (typeof folder !== "string" || folder === "") throw new Error(`"${op}" needs "folder", the text index folder's absolute path.`);
  let entry = indexes.get(folder);
  if (!entry) {
    const index = new TextIndex();
    const store = new FolderIndexStore(folder);
    entry = { index, store, loaded: index.load(store, KEY) };
    indexes.set(folder, entry);
  }
  return entry;
}

export const textOps: Record<string, (params: unknown) => Promise<unknown>> = {
  /** Loads the saved index; answers whether it was usable and every indexed path with its hash. */
  "text.open": async (raw) => {
    const entry = entryFor(raw, "text.open");
    const loaded = await entry.loaded;
    return { loaded, hashes: Object.fromEntries(entry.index.paths().map((p) => [p, entry.index.hashOf(p)])) };
  },
  /** Applies a batch: `set` notes ({path, text, hash}) and `remove` paths. */
  "text.update": async (raw) => {
    const entry = entryFor(raw, "text.update");
    await entry.loaded;
    const p = raw as { set?: { path: string; text: string; hash: string }[]; remove?: string[] };
    for (const path of p.remove ?? []) entry.index.remove(path);
    for (const doc of p.set ?? []) entry.index.set(doc.path, doc.text, doc.hash);
    return { size: entry.index.size };
  },
  "text.search": async (raw) => {
    const entry = entryFor(raw, "text.search");
    await entry.loaded;
    const p = raw as { query?: unknown; limit?: unknown; pathPrefix?: unknown };
    if (typeof p.query !== "string") throw new Error('"text.search" needs "query".');
    const filter = typeof p.pathPrefix === "string" && p.pathPrefix !== "" ? { pathPrefix: p.pathPrefix } : undefined;
    return entry.index.search(p.query, typeof p.limit === "number" ? p.limit : 10, filter);
  },
  "text.save": async (raw) => {
    const entry = entryFor(raw, "text.save");
    await entry.loaded;
    await entry.index.save(entry.store, KEY);
    return { ok: true };
  },
  "text.close": async (raw) => {
    const entry = entryFor(raw, "text.close");
    await entry.loaded;
    await entry.index.save(entry.store, KEY);
    indexes.delete((raw as { folder: string }).folder);
    return { ok: true };
  },
};
