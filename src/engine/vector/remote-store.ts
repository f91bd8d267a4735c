/**
 * The VectorStore the plugin and CLI use: each call is a request to the engine host, which runs
 * vectra (see host-ops.ts). Opens the index lazily on first use and passes any notice (a rebuilt
 * index) to `onNotice`.
 */
import type { RelabelItem, VectorCodec, VectorHit, VectorItem, VectorStore } from "../../core/ports/vector-store";
import { LIST_SEPARATOR } from "../../core/memory/packed-list";
import type { FlatPrecision } from "./flat-codec";

/** The part of the engine client this store needs. */
export interface EngineRequester {
  request(op: string, params: unknown, opts?: { signal?: AbortSignal }): Promise<unknown>;
}

export interface RemoteVectorStoreOptions {
  /** Absolute path of the index folder. */
  folder: string;
  codec?: VectorCodec;
  /** The flat store's file precision, where the flat store serves it (the search worker); the host ignores it. */
  precision?: FlatPrecision;
  onNotice?: (message: string) => void;
}

export class RemoteVectorStore implements VectorStore {
  private opened: Promise<void> | null = null;

  constructor(
    private readonly client: EngineRequester,
    private readonly options: RemoteVectorStoreOptions,
  ) {}

  /** Opens the index in the host; resolves with its size and any notices. */
  async open(): Promise<{ items: number; dimension?: number; notices: string[] }> {
    const result = (await this.client.request("vector.open", { folder: this.options.folder, codec: this.options.codec, precision: this.options.precision })) as {
      items: number;
      dimension?: number;
      notices: string[];
    };
    for (const n of result.notices ?? []) this.options.onNotice?.(n);
    return result;
  }

  async upsert(items: VectorItem[]): Promise<void> {
    if (items.length === 0) return;
    await this.call("vector.upsert", { items });
  }

  async relabel(items: RelabelItem[]): Promise<string[]> {
    if (items.length === 0) return [];
    return (await this.call("vector.relabel", { items })) as string[];
  }

  async delete(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.call("vector.delete", { ids });
  }

  async query(vector: number[], topK: number, filter?: Record<string, unknown>): Promise<VectorHit[]> {
    return (await this.call("vector.query", { vector, topK, filter })) as VectorHit[];
  }

  async stats(): Promise<{ items: number; bytes: number; dimension?: number }> {
    return (await this.call("vector.stats", {})) as { items: number; bytes: number; dimension?: number };
  }

  async listIds(): Promise<{ id: string; hash: string; path: string }[]> {
    return await unpackIds((await this.call("vector.listIds", {})) as ListedIds);
  }

  /** Asks the host to write the index to disk now. */
  async flush(): Promise<void> {
    await this.call("vector.flush", {});
  }

  private async call(op: string, params: Record<string, unknown>): Promise<unknown> {
    if (!this.opened) this.opened = this.open().then(() => undefined);
    try {
      await this.opened;
    } catch (err) {
      this.opened = null;
      throw err;
    }
    return this.client.request(op, { folder: this.options.folder, ...params });
  }
}

/** "vector.listIds" answers: a list (the host), or three strings joined by LIST_SEPARATOR (the search worker). */
type ListedIds = { id: string; hash: string; path: string }[] | { ids: string; hashes: string; paths: string; count: number };

/** The list, made in slices with a pause between (175,000 entries at once held the main thread 50 ms and more). */
async function unpackIds(listed: ListedIds): Promise<{ id: string; hash: string; path: string }[]> {
  if (Array.isArray(listed)) return listed;
  if (listed.count === 0) return [];
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  const ids = listed.ids.split(LIST_SEPARATOR);
  await pause();
  const hashes = listed.hashes.split(LIST_SEPARATOR);
  await pause();
  const paths = listed.paths.split(LIST_SEPARATOR);
  const out: { id: string; hash: string; path: string }[] = [];
  for (let i = 0; i < ids.length; i++) {
    if ((i & 16383) === 16383) await pause();
    out.push({ id: ids[i], hash: hashes[i], path: paths[i] });
  }
  return out;
}
