/**
 * What the search worker serves: the full-text ops (src/core/memory/text-ops.ts) and the flat vector store's ops,
 * under the names and parameters the engine host uses, over index files the main thread reads and writes for it
 * (`files`). Each index folder has one TextIndex and one FlatVectorStore.
 */
import type { IndexStore } from "../../core/ports/index-store";
import type { RelabelItem, VectorItem } from "../../core/ports/vector-store";
import { createTextOps, type OpHandlers } from "../../core/memory/text-ops";
import { LIST_SEPARATOR } from "../../core/memory/packed-list";
import { FlatVectorStore } from "../vector/flat-store";
import type { FlatPrecision } from "../vector/flat-codec";
import type { VectorFiles } from "../vector/vector-files";

/** The index files of one folder, as the worker reaches them (through the main thread). */
export interface WorkerFolderFiles extends VectorFiles {
  remove(name: string): Promise<void>;
}

/** Text through the folder's files as UTF-8 bytes. */
class BytesIndexStore implements IndexStore {
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();

  constructor(private readonly files: WorkerFolderFiles) {}

  async load(key: string): Promise<string | null> {
    const bytes = await this.files.read(key);
    return bytes === null ? null : this.decoder.decode(bytes);
  }
  save(key: string, text: string): Promise<void> {
    return this.files.write(key, this.encoder.encode(text));
  }
  remove(key: string): Promise<void> {
    return this.files.remove(key);
  }
}

interface VectorParams {
  folder: string;
  /** "vector.open": how vectors are written to the file (default float32). */
  precision?: FlatPrecision;
  /** "vector.open": quiet time before changes are written (default FLAT_FLUSH_DELAY_MS). */
  flushDelayMs?: number;
}

/**
 * The flat store's quiet time before it writes, in the worker: its file is written whole (91 MB at 50,000 notes, int8),
 * so a burst of edits writes once per half minute, not every 2 s. Closing writes at once; a crash loses at most this much,
 * which the next build finds missing and embeds again.
 */
export const FLAT_FLUSH_DELAY_MS = 30_000;

function vectorParams<T extends VectorParams>(raw: unknown, op: string, required: (keyof T)[] = []): T {
  if (!raw || typeof raw !== "object") throw new Error(`"${op}" needs an object of parameters.`);
  const p = raw as T;
  if (typeof p.folder !== "string" || p.folder === "") throw new Error(`"${op}" needs "folder", the vector index folder.`);
  for (const key of required) if ((p as Record<string, unknown>)[key as string] === undefined) throw new Error(`"${op}" needs "${String(key)}".`);
  return p;
}

/** The ops of one worker. `notice` passes the flat store's notices (an unreadable file moved aside) to the main thread. */
export function createWorkerOps(files: (folder: string) => WorkerFolderFiles, notice: (message: string) => void = () => undefined): OpHandlers {
  const stores = new Map<string, FlatVectorStore>();
  const storeFor = (p: VectorParams): FlatVectorStore => {
    let store = stores.get(p.folder);
    if (!store) {
      store = new FlatVectorStore(files(p.folder), { precision: p.precision, flushDelayMs: p.flushDelayMs ?? FLAT_FLUSH_DELAY_MS, onNotice: notice });
      stores.set(p.folder, store);
    }
    return store;
  };
  return {
    ...createTextOps((folder) => new BytesIndexStore(files(folder))),
    "vector.open": async (raw) => storeFor(vectorParams(raw, "vector.open")).open(),
    "vector.upsert": async (raw) => {
      const p = vectorParams<VectorParams & { items: VectorItem[] }>(raw, "vector.upsert", ["items"]);
      await storeFor(p).upsert(p.items);
      return { ok: true };
    },
    "vector.relabel": async (raw) => {
      const p = vectorParams<VectorParams & { items: RelabelItem[] }>(raw, "vector.relabel", ["items"]);
      return storeFor(p).relabel(p.items);
    },
    "vector.delete": async (raw) => {
      const p = vectorParams<VectorParams & { ids: string[] }>(raw, "vector.delete", ["ids"]);
      await storeFor(p).delete(p.ids);
      return { ok: true };
    },
    "vector.query": async (raw) => {
      const p = vectorParams<VectorParams & { vector: number[]; topK: number; filter?: Record<string, unknown> }>(raw, "vector.query", ["vector", "topK"]);
      return storeFor(p).query(p.vector, p.topK, p.filter);
    },
    "vector.stats": async (raw) => storeFor(vectorParams(raw, "vector.stats")).stats(),
    /** Every id, hash and path as three strings (see unpackIds): 165,000 small objects were a long copy on the main thread. */
    "vector.listIds": async (raw) => {
      const list = await storeFor(vectorParams(raw, "vector.listIds")).listIds();
      return { ids: list.map((x) => x.id).join(LIST_SEPARATOR), hashes: list.map((x) => x.hash).join(LIST_SEPARATOR), paths: list.map((x) => x.path).join(LIST_SEPARATOR), count: list.length };
    },
    "vector.flush": async (raw) => {
      await storeFor(vectorParams(raw, "vector.flush")).flush();
      return { ok: true };
    },
    "vector.close": async (raw) => {
      const p = vectorParams(raw, "vector.close");
      const store = stores.get(p.folder);
      stores.delete(p.folder);
      await store?.close();
      return { ok: true };
    },
  };
}
