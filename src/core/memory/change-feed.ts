/**
 * The change feed: vault changes gathered while the user types (debounced; a rename is a delete and a create),
 * then applied in one batch — each changed note re-read, its chunks given ids, vectors of text it still has kept
 * (a move rewrites metadata), new text embedded, and vectors no note holds any more dropped.
 */
import type { VaultChange } from "../ports/vault";
import type { Chunk } from "./chunker";
import { hashOfVectorId } from "./index-manifest";
import { emptyReport, type IndexReport, type IndexState, type Need } from "./index-state";
import { VectorFulfilment } from "./vector-fulfil";

/** Changes waiting for a quiet moment. */
export class ChangeFeed {
  private readonly pending = new Map<string, VaultChange>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly debounceMs: number,
    /** Called after the quiet time with the changes gathered. */
    private readonly flush: () => void,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  add(change: VaultChange): void {
    if (change.kind === "rename") this.pending.set(change.oldPath, { kind: "delete", path: change.oldPath });
    this.pending.set(change.path, change);
    this.stop();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.debounceMs);
  }

  /** The gathered changes, emptied, with the timer stopped. */
  take(): VaultChange[] {
    this.stop();
    const changes = [...this.pending.values()];
    this.pending.clear();
    return changes;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/** Applies a batch of changes to both indexes. */
export async function applyChanges(state: IndexState, changes: VaultChange[], signal?: AbortSignal): Promise<IndexReport> {
  const started = state.now();
  await state.load();
  const report = emptyReport();
  /** Ids whose vectors this batch may drop (or reuse): id -> the path that held it. */
  const freed = new Map<string, string>();
  const created = await readChanged(state, changes, freed, report);
  const { needs, embedTotal } = vectorNeeds(state, created, freed);
  if (state.semantic) {
    const cancelled = await new VectorFulfilment(state).run(needs, embedTotal, report, signal);
    // After relabeling, which may copy from them: vectors no note holds any more.
    const drop = [...freed.keys()].filter((id) => !state.owners.has(id));
    if (drop.length) {
      await state.options.vectors!.delete(drop);
      report.deleted += drop.length;
    }
    if (cancelled) return state.finish(report, started, true);
  }
  state.scheduleSave();
  return state.finish(report, started, false);
}

/** Re-reads each changed note (or forgets or skips it), noting in `freed` the ids it held; the notes read, with their chunks. */
async function readChanged(state: IndexState, changes: VaultChange[], freed: Map<string, string>, report: IndexReport): Promise<{ path: string; chunks: Chunk[] }[]> {
  const created: { path: string; chunks: Chunk[] }[] = [];
  const expanded = changes.flatMap((c): VaultChange[] => (c.kind === "rename" ? [{ kind: "delete", path: c.oldPath }, { kind: "create", path: c.path }] : [c]));
  for (const change of expanded) {
    const path = change.path;
    if (!state.isCandidate(path)) continue;
    for (const id of state.manifest.notes[path]?.ids ?? []) if (state.owners.get(id) === path) freed.set(id, path);
    if (change.kind === "delete") {
      state.forget(path);
      delete state.manifest.skipped[path];
      continue;
    }
    if (state.isExcluded(path)) {
      state.forget(path);
      state.manifest.skipped[path] = "excluded";
      continue;
    }
    const stat = await state.options.vault.stat(path);
    if (!stat) {
      state.forget(path);
      continue;
    }
    if (state.isHuge(stat.size)) {
      state.skip(path, "huge");
      continue;
    }
    const chunks = await state.readAndIndex(path, stat.mtime, stat.size, report);
    if (chunks) created.push({ path, chunks });
  }
  return created;
}

/** Gives the notes read their chunk ids and says what each chunk needs: its own vector kept, a freed one taken, or an embedding. */
function vectorNeeds(state: IndexState, created: { path: string; chunks: Chunk[] }[], freed: Map<string, string>): { needs: Map<string, Need[]>; embedTotal: number } {
  // A path changed twice in one batch: only its last reading counts.
  const last = new Map(created.map((c) => [c.path, c]));
  const freedByHash = new Map<string, string>();
  for (const id of freed.keys()) if (!freedByHash.has(hashOfVectorId(id))) freedByHash.set(hashOfVectorId(id), id);
  const needs = new Map<string, Need[]>();
  let embedTotal = 0;
  for (const { path, chunks } of last.values()) {
    if (!state.manifest.notes[path]) continue;
    const ids = state.assignIds(path, chunks.map((c) => c.hash));
    const list: Need[] = [];
    ids.forEach((id, i) => {
      const was = freed.get(id);
      if (was !== undefined) {
        // The same text under the same id: its vector stays; metadata follows a move.
        freed.delete(id);
        if (was !== path) list.push({ id, from: id });
        return;
      }
      const from = freedByHash.get(chunks[i].hash) ?? state.storedWithHash(chunks[i].hash, id);
      list.push(from === undefined ? { id } : { id, from });
      if (from === undefined) embedTotal++;
    });
    if (list.length) needs.set(path, list);
  }
  return { needs, embedTotal };
}
