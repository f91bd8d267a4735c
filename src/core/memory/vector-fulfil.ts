/**
 * The vector half of a pass: what the notes' chunks need in the vector index, carried out — stored vectors
 * relabeled (a move rewrites metadata only), new texts embedded in batches across notes, with progress and an ETA.
 */
import type { RelabelItem, VectorItem } from "../ports/vector-store";
import { chunkNote, type Chunk } from "./chunker";
import { contentHash } from "./content-hash";
import { hashOfVectorId } from "./index-manifest";
import type { IndexReport, IndexState, Need } from "./index-state";

/** Metadata rewrites per request to the vector index. */
const RELABEL_BATCH = 512;

export class VectorFulfilment {
  constructor(private readonly state: IndexState) {}

  /**
   * Carries out what the notes' chunks need in the vector index: stored vectors relabeled in batches
   * (no embedding), the rest embedded in batches across notes. Notes are read again here (only ids
   * travel this far, so a 10,000-note build holds a few megabytes, not every chunk's text). True when
   * cancelled part-way.
   */
  async run(needs: Map<string, Need[]>, embedTotal: number, report: IndexReport, signal?: AbortSignal): Promise<boolean> {
    const batchSize = Math.max(1, this.state.options.batchSize ?? 32);
    const started = this.state.now();
    let total = embedTotal;
    let done = 0;
    const toEmbed: { id: string; chunk: Chunk }[] = [];
    let toRelabel: { item: RelabelItem; chunk: Chunk }[] = [];
    /** Chunks with the text of one embedded earlier in this run, and the id embedded first per text. */
    const copies: { item: RelabelItem; chunk: Chunk }[] = [];
    const firstOf = new Map<string, string>();
    const embedSome = async (n: number) => {
      const part = toEmbed.splice(0, n);
      await this.embedBatch(part, report, signal);
      done += part.length;
      this.progress(done, total, started);
    };
    const relabelAll = async () => {
      const batch = toRelabel;
      toRelabel = [];
      const missing = new Set(await this.state.options.vectors!.relabel(batch.map((b) => b.item)));
      for (const b of batch) {
        if (missing.has(b.item.id)) {
          toEmbed.push({ id: b.item.id, chunk: b.chunk });
          total++;
        } else report.relabeled++;
      }
    };
    for (const [path, list] of needs) {
      if (signal?.aborted) return true;
      const entry = this.state.manifest.notes[path];
      let text: string;
      try {
        text = await this.state.options.vault.read(path);
      } catch {
        continue;
      }
      // Changed since the scan: the change event (or the next build) takes care of its chunks.
      if (!entry || contentHash(text) !== entry.hash) continue;
      const chunks = chunkNote(path, text, this.state.options.chunk);
      if (chunks.length !== entry.ids.length) continue;
      const at = new Map(entry.ids.map((id, i) => [id, i]));
      for (const need of list) {
        const chunk = chunks[at.get(need.id) ?? -1];
        if (!chunk || chunk.hash !== hashOfVectorId(need.id)) continue;
        const first = firstOf.get(chunk.hash);
        if (need.from !== undefined) toRelabel.push({ item: { id: need.id, from: need.from, metadata: metadataOf(chunk) }, chunk });
        else if (first !== undefined) {
          // The same text as a chunk embedded in this run: its vector is copied once that one is stored.
          copies.push({ item: { id: need.id, from: first, metadata: metadataOf(chunk) }, chunk });
          total--;
        } else {
          firstOf.set(chunk.hash, need.id);
          toEmbed.push({ id: need.id, chunk });
        }
      }
      if (toRelabel.length >= RELABEL_BATCH) await relabelAll();
      while (toEmbed.length >= batchSize) {
        if (signal?.aborted) return true;
        await embedSome(batchSize);
      }
    }
    if (toRelabel.length > 0) await relabelAll();
    while (toEmbed.length > 0) {
      if (signal?.aborted) return true;
      await embedSome(Math.min(batchSize, toEmbed.length));
    }
    if (copies.length > 0) {
      toRelabel = copies;
      await relabelAll();
      while (toEmbed.length > 0) {
        if (signal?.aborted) return true;
        await embedSome(Math.min(batchSize, toEmbed.length));
      }
    }
    return false;
  }

  /** Embeds one batch and stores it. */
  private async embedBatch(batch: { id: string; chunk: Chunk }[], report: IndexReport, signal?: AbortSignal): Promise<void> {
    const t0 = this.state.now();
    const vectors = await this.state.options.embed!(batch.map((b) => b.chunk.embedText), signal);
    report.embedMs += this.state.now() - t0;
    const items: VectorItem[] = batch.map((b, k) => ({ id: b.id, vector: vectors[k], metadata: metadataOf(b.chunk) }));
    await this.state.options.vectors!.upsert(items);
    report.embedded += batch.length;
  }

  private progress(done: number, total: number, started: number): void {
    const elapsed = this.state.now() - started;
    this.state.options.onProgress?.({ phase: "embed", done, total, etaMs: done > 0 ? Math.round((elapsed / done) * Math.max(0, total - done)) : null });
  }
}

/** What the vector index keeps with a chunk: where it is now (rewritten on moves) and its text's hash. */
function metadataOf(chunk: Chunk): VectorItem["metadata"] {
  // Texts stay in the notes (MemorySearch reads them back by hash); sending them would only cost IPC.
  return { path: chunk.path, folder: folderOf(chunk.path), heading: chunk.heading, hash: chunk.hash, text: "", line: chunk.line };
}

/** The folder part of a vault path ("" at the root). */
export function folderOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i >= 0 ? path.slice(0, i) : "";
}
