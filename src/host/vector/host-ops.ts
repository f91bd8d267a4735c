/**
 * Memory operations the engine host serves: vector.* (one VectraStore per index folder) and text.*
 * (the full-text index, text-host-ops.ts). Every vector op takes
 * `{folder}` (absolute path of the index folder) plus its own params; "vector.open" also takes
 * `{codec?}` and answers with notices (e.g. a corrupt index that was rebuilt); "vector.relabel"
 * rewrites metadata on stored vectors (moved notes) and answers the ids it could not find.
 */
import { VectraStore } from "./vectra-store";
import type { VectorCodec } from "../../core/ports/vector-store";
import { textOps } from "./text-host-ops";
import type { RelabelItem, VectorItem } from "../../core/ports/vector-store";

const stores = new Map<string, VectraStore>();

interface FolderParams {
  folder: string;
}

function params<T extends FolderParams>(raw: unknown, op: string, required: (keyof T)[] = []): T {
  if (!raw || typeof raw !== "object") throw new Error(`"${op}" needs an object of parameters.`);
  const p = raw as T;
  if (typeof p.folder !== "string" || p.folder === "") throw new Error(`"${op}" needs "folder", the index folder's absolute path.`);
  for (const key of required) if ((p as Record<string, unknown>)[key as string] === undefined) throw new Error(`"${op}" needs "${String(key)}".`);
  return p;
}

let exitHookInstalled = false;

/** The host exits with process.exit when told to shut down or when its client goes away: write pending changes first. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const store of stores.values()) {
      try {
        store.flushSync();
      } catch {
        // Nothing can be reported at exit; the next build re-embeds what is missing.
      }
    }
  });
}

function storeFor(p: FolderParams & { codec?: VectorCodec }): VectraStore {
  let store = stores.get(p.folder);
  if (!store) {
    installExitHook();
    store = new VectraStore(p.folder, { codec: p.codec });
    stores.set(p.folder, store);
  }
  return store;
}

export const vectorOps: Record<string, (params: unknown) => Promise<unknown>> = {
  "vector.open": async (raw) => {
    const p = params<FolderParams & { codec?: VectorCodec }>(raw, "vector.open");
    if (p.codec !== undefined && p.codec !== "compact" && p.codec !== "json" && p.codec !== "protobuf") throw new Error(`Unknown codec "${String(p.codec)}"; use "compact", "protobuf" or "json".`);
    return storeFor(p).open();
  },
  "vector.upsert": async (raw) => {
    const p = params<FolderParams & { items: VectorItem[] }>(raw, "vector.upsert", ["items"]);
    await storeFor(p).upsert(p.items);
    return { ok: true };
  },
  /** Metadata rewrites that keep stored vectors (moves); answers the ids whose source is missing. */
  "vector.relabel": async (raw) => {
    const p = params<FolderParams & { items: RelabelItem[] }>(raw, "vector.relabel", ["items"]);
    if (!Array.isArray(p.items)) throw new Error('"vector.relabel" needs "items", a list of {id, from?, metadata}.');
    return storeFor(p).relabel(p.items);
  },
  "vector.delete": async (raw) => {
    const p = params<FolderParams & { ids: string[] }>(raw, "vector.delete", ["ids"]);
    await storeFor(p).delete(p.ids);
    return { ok: true };
  },
  "vector.query": async (raw) => {
    const p = params<FolderParams & { vector: number[]; topK: number; filter?: Record<string, unknown> }>(raw, "vector.query", ["vector", "topK"]);
    return storeFor(p).query(p.vector, p.topK, p.filter);
  },
  "vector.stats": async (raw) => storeFor(params(raw, "vector.stats")).stats(),
  "vector.listIds": async (raw) => storeFor(params(raw, "vector.listIds")).listIds(),
  "vector.flush": async (raw) => {
    await storeFor(params(raw, "vector.flush")).flush();
    return { ok: true };
  },
  "vector.close": async (raw) => {
    const p = params(raw, "vector.close");
    const store = stores.get(p.folder);
    stores.delete(p.folder);
    await store?.close();
    return { ok: true };
  },
  // The full-text index lives in the host too (see text-host-ops.ts).
  ...textOps,
};

/** Writes every open index to disk (the host calls this before it exits). */
export async function flushAllVectorStores(): Promise<void> {
  await Promise.all([...stores.values()].map((s) => s.flush()));
}
