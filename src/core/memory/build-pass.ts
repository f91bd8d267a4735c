/**
 * The build pass: a full sync with the vault. Scans every note (unchanged ones by mtime, size and text hash, the
 * rest re-read), drops what is gone, gives chunk ids (unchanged notes keep theirs), and brings the vector index in
 * step: vectors whose text is already stored are reused under any id, only new text is embedded.
 */
import { hashOfVectorId } from "./index-manifest";
import { emptyReport, type IndexReport, type IndexState, type Need } from "./index-state";
import { VectorFulfilment } from "./vector-fulfil";
import { TimeSlices, yieldToLoop } from "./yield";
import { fileOfDoc } from "./source-text";

export async function runBuild(state: IndexState, signal?: AbortSignal): Promise<IndexReport> {
  const started = state.now();
  await state.load();
  const report = emptyReport();
  await dropOtherModel(state, report);
  const scanned = await scan(state, report, signal);
  if (!scanned) return state.finish(report, started, true);
  // These passes cover every note: in slices of about 8 ms, so a 50,000-note build never blocks for long (counted
  // slices of 1,000 notes, and none at all for the notes gone, held the thread 140–170 ms there).
  const slices = new TimeSlices();
  await dropGone(state, scanned.live, slices);
  await reassignIds(state, scanned.reread, slices);
  if (state.semantic && (await syncVectors(state, report, slices, signal))) return state.finish(report, started, true);
  if (state.dirty) await state.saveNow();
  return state.finish(report, started, false);
}

/** Another embedding model: its vectors are not comparable, so all of them are recomputed. */
async function dropOtherModel(state: IndexState, report: IndexReport): Promise<void> {
  const opts = state.options;
  if (!state.semantic || (state.manifest.modelKey ?? null) === (opts.modelKey ?? null)) return;
  const ids = (await opts.vectors!.listIds()).map((x) => x.id);
  if (ids.length) await opts.vectors!.delete(ids);
  report.deleted += ids.length;
  state.manifest.modelKey = opts.modelKey ?? null;
  state.dirty = true;
}

/** Every candidate file: the notes still there (`live`) and those re-read (`reread`); null when cancelled. */
async function scan(state: IndexState, report: IndexReport, signal?: AbortSignal): Promise<{ live: Set<string>; reread: string[] } | null> {
  const opts = state.options;
  const files = (await opts.vault.list()).filter((f) => state.isCandidate(f.path));
  const live = new Set<string>();
  const before = { skipped: state.manifest.skipped, at: state.manifest.skippedAt ?? {} };
  state.manifest.skipped = {};
  state.manifest.skippedAt = {};
  /** Notes re-read in this build: their chunk ids are assigned after the unchanged notes keep theirs. */
  const reread: string[] = [];
  let done = 0;
  let sliceStart = Date.now();
  for (const f of files) {
    if (signal?.aborted) return null;
    done++;
    if (state.isExcluded(f.path)) {
      state.manifest.skipped[f.path] = "excluded";
      continue;
    }
    if (state.isHuge(f.size)) {
      state.manifest.skipped[f.path] = "huge";
      continue;
    }
    const entry = state.manifest.notes[f.path];
    const reason = before.skipped[f.path];
    if ((reason === "binary" || reason === "nonUtf8") && before.at[f.path] === `${f.mtime}:${f.size}`) {
      // Skipped for its content last time and unchanged since: not read again on every build.
      state.manifest.skipped[f.path] = reason;
      state.manifest.skippedAt[f.path] = before.at[f.path];
    } else if (entry && entry.mtime === f.mtime && entry.size === f.size && state.text.hashOf(f.path) === entry.hash) {
      live.add(f.path);
    } else if (await state.readAndIndex(f.path, f.mtime, f.size, report)) {
      live.add(f.path);
      reread.push(f.path);
    }
    if (Date.now() - sliceStart > 8) {
      opts.onProgress?.({ phase: "scan", done, total: files.length, etaMs: null });
      await yieldToLoop();
      sliceStart = Date.now();
    }
  }
  return { live, reread };
}

/** Notes that vanished since the last run. */
async function dropGone(state: IndexState, live: Set<string>, slices: TimeSlices): Promise<void> {
  const gone: string[] = [];
  for (const p of Object.keys(state.manifest.notes)) {
    if (!live.has(p)) gone.push(p);
    if (slices.due()) await slices.pause();
  }
  for (const p of gone) {
    state.forget(p);
    if (slices.due()) await slices.pause();
  }
  // A PDF's page documents (`file.pdf#page=3`) live while the PDF does.
  for (const p of state.text.paths()) {
    if (!live.has(fileOfDoc(p))) state.text.remove(p);
    if (slices.due()) await slices.pause();
  }
}

/** Ids: unchanged notes keep theirs; re-read ones (and any whose ids clash) take the first free id for each chunk's text. */
async function reassignIds(state: IndexState, reread: string[], slices: TimeSlices): Promise<void> {
  const rereadSet = new Set(reread);
  state.owners.clear();
  const conflicted: string[] = [];
  const notes = state.manifest.notes;
  for (const path of Object.keys(notes)) {
    if (slices.due()) await slices.pause();
    const entry = notes[path];
    if (rereadSet.has(path) || !entry) continue;
    if (entry.ids.some((id) => state.owners.has(id))) conflicted.push(path);
    else for (const id of entry.ids) state.owners.set(id, path);
  }
  for (const path of [...conflicted, ...reread]) {
    if (slices.due()) await slices.pause();
    const entry = notes[path];
    if (entry) state.assignIds(path, entry.ids.map(hashOfVectorId));
  }
}

/** Brings the vector index in step with the manifest; true when cancelled. */
async function syncVectors(state: IndexState, report: IndexReport, slices: TimeSlices, signal?: AbortSignal): Promise<boolean> {
  const vectors = state.options.vectors!;
  // What the vector index holds: an id there already has its text's vector; a hash there (under any
  // id, including ids of an older format) has a vector to copy.
  const listed = await vectors.listIds();
  const stored = new Map<string, (typeof listed)[number]>();
  const byHash = new Map<string, string>();
  for (let i = 0; i < listed.length; i++) {
    // 175,000 ids for 50,000 notes: two maps of them built in one go held the thread 50 ms and more.
    if ((i & 255) === 255 && slices.due()) await slices.pause();
    const x = listed[i];
    stored.set(x.id, x);
    if (x.hash && !byHash.has(x.hash)) byHash.set(x.hash, x.id);
  }
  const needs = new Map<string, Need[]>();
  let embedTotal = 0;
  const notes = state.manifest.notes;
  for (const path of Object.keys(notes)) {
    if (slices.due()) await slices.pause();
    const entry = notes[path];
    if (!entry) continue;
    const list: Need[] = [];
    for (const id of entry.ids) {
      const hash = hashOfVectorId(id);
      const have = stored.get(id);
      if (have && have.hash === hash) {
        if (have.path !== path) list.push({ id, from: id });
        continue;
      }
      const from = byHash.get(hash);
      list.push(from === undefined ? { id } : { id, from });
      if (from === undefined) embedTotal++;
    }
    if (list.length) needs.set(path, list);
  }
  if (await new VectorFulfilment(state).run(needs, embedTotal, report, signal)) return true;
  // Only now, after copies are taken from them: vectors no note uses any more.
  const stale: string[] = [];
  for (const id of stored.keys()) {
    if (!state.owners.has(id)) stale.push(id);
    if (slices.due()) await slices.pause();
  }
  if (stale.length) {
    await vectors.delete(stale);
    report.deleted += stale.length;
  }
  return false;
}
