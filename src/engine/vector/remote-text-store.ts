/**
 * The full-text index in the engine host (see text-host-ops.ts). Note texts are queued and sent in
 * batches of about 1 MB; hashes are mirrored here so change checks stay synchronous; a search or save
 * first sends what is queued.
 */
import type { TextStore } from "../../core/memory/text-store";
import type { TextFilter, TextHit } from "../../core/memory/text-index";
import { openedHashes } from "../../core/memory/packed-list";
import type { EngineRequester } from "./remote-store";

const BATCH_CHARS = 1_000_000;

export class RemoteTextStore implements TextStore {
  private hashes = new Map<string, string>();
  /** Notes to send, by path (the last text of a path wins; a remove drops it in constant time). */
  private queueSet = new Map<string, { path: string; text: string; hash: string }>();
  private queueRemove: string[] = [];
  private queuedChars = 0;
  /** Batches in flight, in order. */
  private sending: Promise<void> = Promise.resolve();
  /** The first failure of a background batch, reported by the next search or save. */
  private failure: Error | null = null;

  constructor(
    private readonly client: EngineRequester,
    /** Absolute folder for the index files. */
    private readonly folder: string,
  ) {}

  async load(): Promise<boolean> {
    const result = (await this.client.request("text.open", { folder: this.folder })) as { loaded: boolean; list?: string; hashes?: Record<string, string> };
    this.hashes = await openedHashes(result, () => new Promise((resolve) => setTimeout(resolve, 0)));
    return result.loaded;
  }

  hashOf(path: string): string | undefined {
    return this.hashes.get(path);
  }

  paths(): string[] {
    return [...this.hashes.keys()];
  }

  set(path: string, text: string, hash: string): void {
    this.hashes.set(path, hash);
    this.queueSet.delete(path);
    this.queueSet.set(path, { path, text, hash });
    this.queuedChars += text.length;
    if (this.queuedChars >= BATCH_CHARS) this.send();
  }

  remove(path: string): void {
    this.hashes.delete(path);
    this.queueSet.delete(path);
    this.queueRemove.push(path);
  }

  async search(query: string, limit: number, filter?: TextFilter): Promise<TextHit[]> {
    await this.flush();
    return (await this.client.request("text.search", { folder: this.folder, query, limit, pathPrefix: filter?.pathPrefix })) as TextHit[];
  }

  async save(): Promise<void> {
    await this.flush();
    await this.client.request("text.save", { folder: this.folder });
  }

  /** Sends everything queued and waits for it. */
  async flush(): Promise<void> {
    this.send();
    await this.sending;
    if (this.failure) {
      const err = this.failure;
      this.failure = null;
      throw err;
    }
  }

  private send(): void {
    if (this.queueSet.size === 0 && this.queueRemove.length === 0) return;
    const set = [...this.queueSet.values()];
    const remove = this.queueRemove;
    this.queueSet = new Map();
    this.queueRemove = [];
    this.queuedChars = 0;
    this.sending = this.sending.then(async () => {
      try {
        await this.client.request("text.update", { folder: this.folder, set, remove });
      } catch (err) {
        this.failure ??= err instanceof Error ? err : new Error(String(err));
      }
    });
  }
}
