/**
 * Where the full-text index lives. minisearch over a 10,000-note vault takes about 300 MB of heap and
 * its garbage collections pause the thread, so in Obsidian it belongs in the engine host next to
 * vectra (RemoteTextStore, src/engine/vector); LocalTextStore keeps it in this process (tests, small
 * vaults). Hashes are mirrored locally so the indexer's change checks stay synchronous.
 */
import type { IndexStore } from "../ports/index-store";
import { TextIndex, type TextFilter, type TextHit } from "./text-index";

export interface TextStore {
  /** Loads the saved index; false when there was none (or it was unusable) and it starts empty. */
  load(): Promise<boolean>;
  /** The content hash a note was indexed with. */
  hashOf(path: string): string | undefined;
  paths(): string[];
  /** Indexes (or re-indexes) a note; may be sent later, in a batch. */
  set(path: string, text: string, hash: string): void;
  remove(path: string): void;
  /** The best `limit` notes, only under `filter.pathPrefix` when given. */
  search(query: string, limit: number, filter?: TextFilter): Promise<TextHit[]>;
  /** Writes pending changes to disk. */
  save(): Promise<void>;
}

/** The text index in this process, persisted through an IndexStore. */
export class LocalTextStore implements TextStore {
  /** The minisearch index itself. */
  readonly index = new TextIndex();

  constructor(
    private readonly store: IndexStore,
    private readonly key = "text-index.json",
  ) {}

  load(): Promise<boolean> {
    return this.index.load(this.store, this.key);
  }
  hashOf(path: string): string | undefined {
    return this.index.hashOf(path);
  }
  paths(): string[] {
    return this.index.paths();
  }
  set(path: string, text: string, hash: string): void {
    this.index.set(path, text, hash);
  }
  remove(path: string): void {
    this.index.remove(path);
  }
  search(query: string, limit: number, filter?: TextFilter): Promise<TextHit[]> {
    return Promise.resolve(this.index.search(query, limit, filter));
  }
  save(): Promise<void> {
    return this.index.save(this.store, this.key);
  }
}
