/**
 * The full-text index served as ops, one TextIndex per index folder, wherever it runs outside the renderer's main
 * thread: the engine host (its files on disk) and the search worker (its files read and written by the main thread).
 * Every op takes `{folder}`, the index folder as the caller names it. RemoteTextStore is the client of both.
 */
import type { IndexStore } from "../ports/index-store";
import { TextIndex } from "./text-index";
import { LIST_SEPARATOR } from "./packed-list";

/** Op name -> handler, as the host and the worker serve them. */
export type OpHandlers = Record<string, (params: unknown) => Promise<unknown>>;


interface Entry {
  index: TextIndex;
  store: IndexStore;
  loaded: Promise<boolean>;
}

/** One document of a "text.update" batch. */
export interface TextDocument {
  path: string;
  text: string;
  hash: string;
}

/**
 * The text ops over the index files of each folder (`storeFor`). "text.open" answers `{loaded, list}`: every indexed
 * path and its hash alternating in one string joined by LIST_SEPARATOR (one string crosses a process or thread
 * boundary as one copy; 50,000 pairs as an object were 50,000 properties to build on the main thread).
 */
/** Makes ahead what the first search needs; a failure here is the first search's to report. */
function prepare(index: TextIndex): void {
  try {
    index.prepareSearch();
  } catch {
    // The search that needs it makes it again and answers the error.
  }
}

export function createTextOps(storeFor: (folder: string) => IndexStore, key = "text-index.json"): OpHandlers {
  const indexes = new Map<string, Entry>();
  const entryFor = (raw: unknown, op: string): Entry => {
    const folder = (raw as { folder?: unknown } | null)?.folder;
    if (typeof folder !== "string" || folder === "") throw new Error(`"${op}" needs "folder", the text index folder.`);
    let entry = indexes.get(folder);
    if (!entry) {
      const index = new TextIndex();
      const store = storeFor(folder);
      // Once loaded, what the first search would make is made in the next task: "text.open" answers first, and a
      // search that comes before it is done waits no longer than it would have taken itself.
      const loaded = index.load(store, key);
      loaded.then(
        (ok) => {
          if (ok) setTimeout(() => prepare(index), 0);
        },
        () => undefined,
      );
      entry = { index, store, loaded };
      indexes.set(folder, entry);
    }
    return entry;
  };
  return {
    /** Loads the saved index; answers whether it was usable and every indexed path with its hash. */
    "text.open": async (raw) => {
      const entry = entryFor(raw, "text.open");
      const loaded = await entry.loaded;
      const parts: string[] = [];
      for (const p of entry.index.paths()) parts.push(p, entry.index.hashOf(p) ?? "");
      return { loaded, list: parts.join(LIST_SEPARATOR) };
    },
    /** Applies a batch: `set` notes ({path, text, hash}) and `remove` paths. */
    "text.update": async (raw) => {
      const entry = entryFor(raw, "text.update");
      await entry.loaded;
      const p = raw as { set?: TextDocument[]; remove?: string[] };
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
      await entry.index.save(entry.store, key);
      return { ok: true };
    },
    "text.close": async (raw) => {
      const entry = entryFor(raw, "text.close");
      await entry.loaded;
      await entry.index.save(entry.store, key);
      indexes.delete((raw as { folder: string }).folder);
      return { ok: true };
    },
  };
}
