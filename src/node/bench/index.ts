/**
 * `bench index [--notes N[,N...]] [--embed-threads N] [--batch B] [--embedder test-model|hash] [--dim D] [--store host|flat|worker] [--keep DIR]`:
 * builds the memory of a generated vault (10,000 notes by default; Zipf vocabulary, headings, links, tags,
 * properties, one note in 1,000 of 60-200 KB) with the generated test model as the embedder on `--embed-threads`
 * threads (default 1), or, with `--embedder hash`, an in-process hashing embedder to measure everything else at full
 * scale; then measures restarts, queries, a one-note update, renaming a folder of a twentieth of the vault (500 notes
 * of 10,000, 2,500 of 50,000) and the save after. Several sizes (`--notes 10000,50000`) run one after the other and
 * the object also gives, per figure, the ratio of the last size's to the first's (`ratios`, beside `notes_ratio`).
 * The JSON object (per size under `runs` when several):
 * notes, chunks, total_ms, embed_ms, embeddings_per_s (chunks embedded per second of embedding),
 * overhead_ratio (non-embedding time / total), index_bytes, load_ms (the vector index), text_load_ms (manifest and
 * text index), load_both_ms (both together, as at a start; the *_cpu_ms twins: CPU time of this process, its threads
 * and the host, what the load costs on an idle machine), query_ms_p95 (semantic: embed the query + vector search +
 * reading the passages back), vector_query_ms_p95 (the vector index's query alone, main thread to result),
 * text_query_ms_p95 (full-text, main thread to result; text_query_cpu_ms_p95 every thread's CPU, text_query_main_cpu_ms_p95
 * the main thread's share), update_one_ms (one modified note until searchable, excluding
 * its own embedding; edit_searchable_ms: until a full-text search finds its new word; update_flush_ms: writing the
 * vector file), rename_folder_ms (and _cpu_ms) and rename_reembedded (the folder renamed, one rename event per note as
 * Obsidian sends them, until the index has followed; goal 0 re-embedded), rename_offline_ms and
 * rename_offline_reembedded (renamed back while the app was closed, then a build), the longest block of this process's
 * event loop, measured with a 10 ms timer, while building (max_block_ms), loading (load_max_block_ms), querying
 * (query_max_block_ms), updating one note (edit_max_block_ms), renaming the folder (rename_max_block_ms) and saving
 * (save_max_block_ms), each with a *_cpu_ms twin capped by the main thread's CPU use; main_heap_peak_mb (this
 * process's main-thread V8 heap at its peak: the renderer's share, garbage not yet collected included),
 * main_heap_live_mb (the same after a full collection once both indexes are loaded: what stays), process_rss_peak_mb
 * (every thread of it),
 * worker_heap_mb (the search worker's heap after the load, `--store worker`); path_trie_rename_ms (the grounded
 * calls' path tree following the folder rename) and the codec comparison.
 * `--store flat [--precision float32|int8]`: the flat vector store and the full-text index in this process;
 * `--store worker`: both in the search worker (the bundled worker script in a worker thread), as the plugin keeps
 * them where there is no engine host.
 * `--only queries`: with `--keep`, reuses the kept vault of each size (DIR/50000, as runs of several sizes keep them)
 * and its index as they are (built first only when absent), and measures the load of both indexes, the queries and the
 * one-note edit (load_both_*, the query_* and text_query_* figures, update_one_ms, edit_searchable_*, edit_max_block_*):
 * seconds instead of minutes at 50,000 notes. Each full-text query's CPU time, in order, goes to the log.
 */
import { mkdtempSync, rmSync, readFileSync, appendFileSync, renameSync, mkdirSync, existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs, UsageError } from "../cli-types";
import { generateVault } from "../vault-generator/generate-vault";
import { defaultIndexDir, openFolderMemory, type FolderMemory } from "../folder-vault/folder-memory";
import { defaultTestModelPath } from "../compose";
import { loadVectra } from "../../host/vector/vectra-loader";
import { CompactCodec } from "../../host/vector/compact-codec";
import { decodeFlatIndex, encodeFlatIndex, type FlatPrecision } from "../../engine/vector/flat-codec";
import { FLAT_FILE } from "../../engine/vector/flat-store";
import { VaultPathIndex } from "../../core/grammar/vault-paths";
import { folderBytes, hashVector, liveHeapMb, mainThreadCpuMs, memoryPeaks, p95, timed } from "./index-meters";

function log(line: string): void {
  process.stderr.write(`[bench index] ${line}\n`);
}

/** Sizes and (de)serialisation times of the built index in the compact codec and vectra's protobuf and JSON codecs. */
async function compareCodecs(file: string): Promise<Record<string, number | string>> {
  const vectra = await loadVectra();
  const codecs = { compact: new CompactCodec(), protobuf: new vectra.ProtobufCodec(), json: new vectra.JsonCodec() };
  const data = codecs.compact.deserializeIndex(readFileSync(file));
  const out: Record<string, number | string> = { items: data.items.length, dimension: data.items[0]?.vector.length ?? 0 };
  for (const [name, codec] of Object.entries(codecs)) {
    let t = performance.now();
    let buf: Buffer;
    try {
      buf = codec.serializeIndex(data);
    } catch (err) {
      out[`${name}_error`] = String(err);
      continue;
    }
    out[`${name}_save_ms`] = Math.round(performance.now() - t);
    out[`${name}_bytes`] = buf.length;
    t = performance.now();
    codec.deserializeIndex(buf);
    out[`${name}_load_ms`] = Math.round(performance.now() - t);
  }
  return out;
}

/** The flat file at both precisions: bytes and decode time (no yields: the pure cost). */
async function compareFlat(file: string): Promise<Record<string, number>> {
  const none = () => Promise.resolve();
  const data = await decodeFlatIndex(readFileSync(file), none);
  const out: Record<string, number> = { items: data.ids.length, dimension: data.dim };
  for (const precision of ["float32", "int8"] as const) {
    let t = performance.now();
    const bytes = await encodeFlatIndex(data, precision, none);
    out[`${precision}_save_ms`] = Math.round(performance.now() - t);
    out[`${precision}_bytes`] = bytes.length;
    t = performance.now();
    await decodeFlatIndex(bytes, none);
    out[`${precision}_load_ms`] = Math.round(performance.now() - t);
  }
  return out;
}

/** This benchmark's line in `bench --help`. */
export const usage =
  "index [--notes N[,N...]] [--embed-threads N] [--batch B] [--embedder test-model|hash] [--store host|flat|worker] [--precision float32|int8] [--dim D] [--seed S] [--keep DIR] [--only queries] [--json]   builds and reloads the memory of a generated vault (10,000 notes by default), then times queries, an update, a folder rename and the save; several sizes give the ratios of their figures";

type Store = "host" | "flat" | "worker";

/** The benchmark's options, checked. */
function indexOptions(argv: string[]) {
  const { options } = parseArgs(argv, { strings: ["notes", "batch", "keep", "seed", "embedder", "dim", "embed-threads", "store", "precision", "only"], booleans: [] });
  const only = options.only as string | undefined;
  if (only !== undefined && only !== "queries") throw new UsageError('--only must be "queries" (the load, the queries and a one-note edit over the kept index).');
  if (only !== undefined && typeof options.keep !== "string") throw new UsageError("--only queries needs --keep, the folder of the kept vaults and their indexes.");
  const store = ((options.store as string | undefined) ?? "host") as Store;
  if (store !== "host" && store !== "flat" && store !== "worker") throw new UsageError('--store must be "host" (default: vectra in the engine host), "flat" or "worker".');
  const precision = ((options.precision as string | undefined) ?? "float32") as FlatPrecision;
  if (precision !== "float32" && precision !== "int8") throw new UsageError('--precision must be "float32" (default) or "int8".');
  const embedder = (options.embedder as string | undefined) ?? "test-model";
  if (embedder !== "test-model" && embedder !== "hash") throw new UsageError('--embedder must be "test-model" (default) or "hash".');
  const dim = options.dim === undefined ? 64 : Number(options.dim);
  const sizes = options.notes === undefined ? [10_000] : String(options.notes).split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 20)) throw new UsageError("--notes must be whole numbers of at least 20, separated by commas.");
  const batch = options.batch === undefined ? 32 : Number(options.batch);
  const threads = options["embed-threads"] === undefined ? 1 : Number(options["embed-threads"]);
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) throw new UsageError("--embed-threads must be a whole number from 1 to 256.");
  const seed = options.seed === undefined ? 42 : Number(options.seed);
  return { keep: typeof options.keep === "string" ? options.keep : undefined, store, precision, embedder, dim, sizes, batch, threads, seed, only };
}

type IndexOptions = ReturnType<typeof indexOptions>;

/** One note in this many is a long one (60-200 KB). */
const LONG_EVERY = 1000;

/**
 * The generated vault, with a twentieth of its notes (500 of 10,000) gathered under Batch/ before indexing (renamed
 * later). A vault kept by an earlier run with the same size and seed is reused (generating 50,000 notes takes
 * minutes), its index removed.
 */
function benchVault(root: string, notes: number, seed: number, keepIndex = false): { paths: string[]; folderNotes: number; batchPaths: string[] } {
  const marker = join(root, ".bench-vault.json");
  const folderNotes = Math.floor(notes / 20);
  const wanted = { notes, seed, longEvery: LONG_EVERY, folderNotes };
  if (existsSync(marker) && existsSync(join(root, "Batch"))) {
    const kept = JSON.parse(readFileSync(marker, "utf8")) as typeof wanted & { paths: string[]; batchPaths: string[] };
    if (kept.notes === notes && kept.seed === seed && kept.longEvery === LONG_EVERY && kept.folderNotes === folderNotes) {
      if (!keepIndex) rmSync(defaultIndexDir(root), { recursive: true, force: true });
      log(`reusing the ${notes}-note vault at ${root}${keepIndex ? " and its index" : ""}`);
      return { paths: kept.paths, folderNotes, batchPaths: kept.batchPaths };
    }
  }
  // Only a vault this bench wrote is removed; any other folder given with --keep is written into, as before.
  if (existsSync(marker)) rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const t = performance.now();
  const generated = generateVault(root, { notes, seed, longEvery: LONG_EVERY });
  log(`generated ${generated.notes} notes (${(generated.bytes / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - t)} ms at ${root}`);
  const batchPaths = generated.paths.slice(0, folderNotes).map((p) => `Batch/${p}`);
  for (let i = 0; i < folderNotes; i++) {
    mkdirSync(dirname(join(root, batchPaths[i])), { recursive: true });
    renameSync(join(root, generated.paths[i]), join(root, batchPaths[i]));
  }
  writeFileSync(marker, JSON.stringify({ ...wanted, paths: generated.paths, batchPaths }));
  return { paths: generated.paths, folderNotes, batchPaths };
}

const QUERIES = ["offline sync queue", "garden tomato", "meeting budget review", "running training plan", "vector embedding search", "kitchen recipe bread", "quarter goal roadmap", "travel train city", "bug fix deploy", "journal reflection habit"];

/**
 * Semantic (embed the query + vector search + passages read back), vector-only and full-text query times, three rounds
 * of ten queries, wall and CPU (every thread of this process: the main thread's and the worker's share of a query;
 * on a loaded machine the wall time is mostly waiting for a core).
 */
async function timeQueries(memory: FolderMemory, queryVector: (q: string) => Promise<number[]>) {
  const search = memory.search;
  const vectors = new Map<string, number[]>();
  for (const q of QUERIES) vectors.set(q, await queryVector(q));
  const times = { semantic: [] as number[], vector: [] as number[], text: [] as number[], vectorCpu: [] as number[], textCpu: [] as number[], textMainCpu: [] as number[] };
  const clock = async (wall: number[], cpu: number[] | null, step: () => Promise<unknown>, mainCpu?: number[]) => {
    const c0 = process.cpuUsage();
    const m0 = mainThreadCpuMs();
    const t0 = performance.now();
    await step();
    wall.push(performance.now() - t0);
    mainCpu?.push(mainThreadCpuMs() - m0);
    const c = process.cpuUsage(c0);
    cpu?.push((c.user + c.system) / 1000);
  };
  for (let round = 0; round < 3; round++) {
    for (const q of QUERIES) {
      await clock(times.semantic, null, () => search.semanticSearch!(q, 8));
      await clock(times.vector, times.vectorCpu, () => memory.vectors!.query(vectors.get(q)!, 8));
      await clock(times.text, times.textCpu, () => search.textSearch(q, 8), times.textMainCpu);
    }
  }
  return times;
}

/** The grounded calls' path tree over the vault, then the folder renamed in it one path at a time, and its rules printed again: ms. */
function timePathTrie(paths: string[], batchPaths: string[]): number {
  const tree = new VaultPathIndex();
  tree.load(paths.concat(batchPaths));
  tree.rules();
  const t = performance.now();
  for (const p of batchPaths) tree.rename(p, p.replace(/^Batch\//, "Renamed batch/"));
  tree.rules();
  return Math.round((performance.now() - t) * 10) / 10;
}

/** Opens the memory of the vault at `root` as the options say. */
function opener(o: IndexOptions, root: string): () => Promise<FolderMemory> {
  let lastLog = 0;
  return () =>
    openFolderMemory({
      vault: root,
      embedModel: o.embedder === "test-model" ? defaultTestModelPath() : undefined,
      embed: o.embedder === "hash" ? { texts: (texts) => Promise.resolve(texts.map((t) => hashVector(t, o.dim))), modelKey: `hash-${o.dim}` } : undefined,
      threads: o.threads,
      batchSize: o.batch,
      store: o.store,
      precision: o.precision,
      onProgress: (p) => {
        if (p.phase === "embed" && Date.now() - lastLog > 5000) {
          lastLog = Date.now();
          log(`embedding ${p.done}/${p.total}${p.etaMs !== null ? `, ~${Math.round(p.etaMs / 1000)} s left` : ""}`);
        }
      },
      onNotice: (m) => log(`notice: ${m}`),
    });
}

/** Builds, reloads and loads both indexes of one vault; the memory left open and the figures. */
async function buildAndLoad(o: IndexOptions, root: string) {
  const open = opener(o, root);
  let memory = await open();
  // Load the model before timing, so total_ms is indexing, not model loading.
  if (o.embedder === "test-model") await memory.engine!.embed(["warm up"]);
  await memory.vectors!.open();
  const built = await timed(undefined, async () => {
    const report = await memory.indexer.build();
    await memory.vectors!.flush();
    return report;
  });
  const report = built.value;
  log(`built: ${report.notes} notes, ${report.chunks} chunks, ${Math.round(built.ms)} ms (embedding ${Math.round(report.embedMs)} ms)`);
  // Restart: the host drops the index and reads it from disk; a fresh indexer loads manifest and text index.
  const restart = async () => {
    if (o.store === "host") await memory.engine!.request("vector.close", { folder: join(memory.indexDir, "vectors") });
    await memory.close();
    memory = await open();
    // The host process is up (and the model loaded) before timing, as when Obsidian has been open a while.
    if (o.embedder === "test-model") await memory.engine!.embed(["warm up"]);
    else await memory.engine?.request("status", {});
    return memory;
  };
  memory = await restart();
  const vectorLoad = await timed(memory.engine?.hostPid, () => memory.vectors!.open());
  const textLoad = await timed(memory.engine?.hostPid, () => memory.indexer.load());
  const rebuild = await memory.indexer.build();
  // Both at once, as at a start: the vector index and the text index load side by side.
  memory = await restart();
  const both = await timed(memory.engine?.hostPid, () => Promise.all([memory.vectors!.open(), memory.indexer.load()]));
  // The first query waits for nothing more: the text index is loaded in the worker or host by now.
  log(`restart: vector index loaded in ${Math.round(vectorLoad.ms)} ms, text index and manifest in ${Math.round(textLoad.ms)} ms; both ${Math.round(both.ms)} ms (${Math.round(both.cpuMs)} ms CPU); re-embedded ${rebuild.embedded} chunks`);
  return { memory, restart, report, built, vectorLoad, textLoad, both, rebuild };
}

/** The one-note edit: a word no other note has appended, until searchable (less the note's own embedding) and until a full-text search finds it. */
async function timeEdit(memory: FolderMemory, root: string, target: string) {
  appendFileSync(join(root, target), `\n## Added in the benchmark\nA new paragraph about offline sync and garden tomatoes, zyxquaternion${Date.now() % 1000}.\n`);
  const word = readFileSync(join(root, target), "utf8").match(/zyxquaternion\d+/g)!.pop()!;
  const edit = await timed(undefined, async () => {
    const t0 = performance.now();
    const update = await memory.indexer.updateNote(target);
    const updateMs = performance.now() - t0;
    const found = (await memory.search.textSearch(word, 3)).some((h) => h.path === target);
    return { update, updateMs, searchableMs: performance.now() - t0, found };
  });
  return { edit, update: edit.value.update, updateMs: edit.value.updateMs };
}

/** `--only queries`: the kept vault and index loaded as at a start, then the queries and the one-note edit. */
async function measureQueries(o: IndexOptions, root: string, notes: number): Promise<Record<string, unknown>> {
  const { paths } = benchVault(root, notes, o.seed, true);
  const open = opener(o, root);
  let memory = await open();
  try {
    if (o.embedder === "test-model") await memory.engine!.embed(["warm up"]);
    if (!existsSync(join(defaultIndexDir(root), "text-index.json"))) {
      log("no kept index: building it");
      await memory.vectors!.open();
      await memory.indexer.build();
      await memory.indexer.close();
      await memory.close();
      memory = await open();
      if (o.embedder === "test-model") await memory.engine!.embed(["warm up"]);
    }
    const both = await timed(memory.engine?.hostPid, () => Promise.all([memory.vectors!.open(), memory.indexer.load()]));
    const queryVector = async (q: string) => (o.embedder === "hash" ? hashVector(q, o.dim) : (await memory.engine!.embed([q]))[0]);
    const queried = await timed(undefined, () => timeQueries(memory, queryVector));
    const times = queried.value;
    log(`full-text query CPU ms, in order: ${times.textCpu.map((x) => Math.round(x)).join(" ")}`);
    const { edit, update, updateMs } = await timeEdit(memory, root, paths[Math.floor(paths.length / 2)]);
    return {
      notes: memory.indexer.paths().length,
      load_both_ms: Math.round(both.ms),
      load_both_cpu_ms: Math.round(both.cpuMs),
      load_max_block_ms: both.block.max,
      load_max_block_cpu_ms: both.block.cpuMax,
      ...queryFigures(times),
      query_max_block_ms: queried.block.max,
      query_max_block_cpu_ms: queried.block.cpuMax,
      update_one_ms: Math.round((updateMs - update.embedMs) * 10) / 10,
      edit_searchable_ms: Math.round(edit.value.searchableMs * 10) / 10,
      edit_searchable_cpu_ms: Math.round(edit.cpuMs * 10) / 10,
      edit_found: edit.value.found,
      edit_max_block_ms: edit.block.max,
      edit_max_block_cpu_ms: edit.block.cpuMax,
    };
  } finally {
    await memory.close().catch(() => undefined);
  }
}

/** One vault size, start to end: the figures. */
async function measure(o: IndexOptions, root: string, notes: number): Promise<Record<string, unknown>> {
  const { paths, folderNotes, batchPaths } = benchVault(root, notes, o.seed);
  const peaks = memoryPeaks();
  const loaded = await buildAndLoad(o, root);
  let memory = loaded.memory;
  try {
    const workerHeap = memory.searchWorker ? await memory.searchWorker.heapUsed() : null;
    const mainHeapLive = liveHeapMb();
    const queryVector = async (q: string) => (o.embedder === "hash" ? hashVector(q, o.dim) : (await memory.engine!.embed([q]))[0]);
    const queried = await timed(undefined, () => timeQueries(memory, queryVector));
    const times = queried.value;
    log(`full-text query CPU ms, in order: ${times.textCpu.map((x) => Math.round(x)).join(" ")}`);

    // One modified note, with a word no other note has.
    const { edit, update, updateMs } = await timeEdit(memory, root, paths[Math.floor(paths.length / 2)]);
    const editCpu = edit.cpuMs;
    const flush = await timed(undefined, () => memory.vectors!.flush());

    // A folder of notes renamed in the app: one rename event per note, as Obsidian sends them.
    renameSync(join(root, "Batch"), join(root, "Renamed batch"));
    const renaming = await timed(memory.engine?.hostPid, async () => {
      const r = await memory.indexer.apply(batchPaths.map((p) => ({ kind: "rename" as const, oldPath: p, path: p.replace(/^Batch\//, "Renamed batch/") })));
      await memory.vectors!.flush();
      return r;
    });
    const renamed = renaming.value;
    log(`renamed a folder of ${folderNotes} notes: ${Math.round(renaming.ms)} ms, ${renamed.embedded} chunks embedded, ${renamed.relabeled} relabeled`);
    // The save that follows (manifest and text index), as when the app closes.
    const saved = await timed(memory.engine?.hostPid, () => memory.indexer.close());
    // Renamed back while the app was closed: the next build finds the vectors by their text.
    renameSync(join(root, "Renamed batch"), join(root, "Batch"));
    memory = await loaded.restart();
    const offline = await timed(undefined, async () => {
      const r = await memory.indexer.build();
      await memory.vectors!.flush();
      return r;
    });
    log(`renamed back offline: build ${Math.round(offline.ms)} ms, ${offline.value.embedded} chunks embedded, ${offline.value.relabeled} relabeled`);
    const indexBytes = folderBytes(memory.indexDir);
    const vectorsFolder = join(memory.indexDir, "vectors");
    const codecs = o.store === "host" ? await compareCodecs(join(vectorsFolder, "index.vec")) : await compareFlat(join(vectorsFolder, FLAT_FILE));
    const memoryPeak = peaks.stop();
    const { report, built, vectorLoad, textLoad, both, rebuild } = loaded;
    return {
      notes: report.notes,
      chunks: report.chunks,
      total_ms: Math.round(built.ms),
      embed_ms: Math.round(report.embedMs),
      embeddings_per_s: report.embedMs > 0 ? Math.round((report.embedded / report.embedMs) * 1000 * 10) / 10 : null,
      overhead_ratio: Math.round(((built.ms - report.embedMs) / built.ms) * 1000) / 1000,
      index_bytes: indexBytes,
      load_ms: Math.round(vectorLoad.ms),
      ...queryFigures(times),
      update_one_ms: Math.round((updateMs - update.embedMs) * 10) / 10,
      edit_searchable_ms: Math.round(edit.value.searchableMs * 10) / 10,
      edit_searchable_cpu_ms: Math.round(editCpu * 10) / 10,
      edit_found: edit.value.found,
      text_load_ms: Math.round(textLoad.ms),
      load_both_ms: Math.round(both.ms),
      load_cpu_ms: Math.round(vectorLoad.cpuMs),
      text_load_cpu_ms: Math.round(textLoad.cpuMs),
      load_both_cpu_ms: Math.round(both.cpuMs),
      max_block_ms: built.block.max,
      max_block_cpu_ms: built.block.cpuMax,
      load_max_block_ms: both.block.max,
      load_max_block_cpu_ms: both.block.cpuMax,
      query_max_block_ms: queried.block.max,
      query_max_block_cpu_ms: queried.block.cpuMax,
      edit_max_block_ms: edit.block.max,
      edit_max_block_cpu_ms: edit.block.cpuMax,
      rename_max_block_ms: renaming.block.max,
      rename_max_block_cpu_ms: renaming.block.cpuMax,
      save_max_block_ms: saved.block.max,
      save_max_block_cpu_ms: saved.block.cpuMax,
      save_ms: Math.round(saved.ms),
      main_heap_peak_mb: memoryPeak.heapMb,
      main_heap_live_mb: mainHeapLive,
      process_rss_peak_mb: memoryPeak.rssMb,
      worker_heap_mb: workerHeap === null ? null : Math.round(workerHeap / 1e6),
      update_embedded_chunks: update.embedded,
      update_flush_ms: Math.round(flush.ms),
      restart_reembedded: rebuild.embedded,
      rename_folder_notes: folderNotes,
      rename_folder_ms: Math.round(renaming.ms),
      rename_folder_cpu_ms: Math.round(renaming.cpuMs),
      rename_reembedded: renamed.embedded,
      rename_relabeled: renamed.relabeled,
      rename_offline_ms: Math.round(offline.ms),
      rename_offline_reembedded: offline.value.embedded,
      path_trie_rename_ms: timePathTrie(paths.slice(folderNotes), batchPaths),
      [o.store === "host" ? "codec_compare" : "flat_compare"]: codecs,
    };
  } finally {
    await memory.close().catch(() => undefined);
  }
}

/** What describes the run as a whole. */
function runInfo(o: IndexOptions): Record<string, unknown> {
  const where = { host: "vectra in the engine host (full-text index there too)", flat: `flat, ${o.precision}, in this process (full-text index here too)`, worker: `flat, ${o.precision}, in the search worker (full-text index there too)` };
  return {
    batch: o.batch,
    embed_threads: o.threads,
    embedder: o.embedder === "test-model" ? `test-model (generated GGUF, threads ${o.threads})` : `hash (${o.dim} dims, in-process; measures everything but embedding)`,
    store: where[o.store],
    codec: o.store === "host" ? "compact" : `flat ${o.precision}`,
  };
}

/** Per numeric figure, the last run's value over the first's (2 decimals; null where the first is 0). */
function ratios(first: Record<string, unknown>, last: Record<string, unknown>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [key, value] of Object.entries(last)) {
    const before = first[key];
    if (typeof value !== "number" || typeof before !== "number") continue;
    out[key] = before === 0 ? null : Math.round((value / before) * 100) / 100;
  }
  return out;
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const o = indexOptions(argv);
  const base = o.keep ?? mkdtempSync(join(tmpdir(), "bench-index-"));
  try {
    const runs: Record<string, Record<string, unknown>> = {};
    for (const notes of o.sizes) {
      // A whole run of one size keeps its vault in --keep itself; --only reads the folder per size that runs of several sizes keep.
      const root = o.sizes.length === 1 && o.keep && !o.only ? o.keep : join(base, String(notes));
      log(`${notes} notes`);
      runs[notes] = o.only === "queries" ? await measureQueries(o, root, notes) : await measure(o, root, notes);
    }
    const first = runs[o.sizes[0]];
    const last = runs[o.sizes[o.sizes.length - 1]];
    if (o.sizes.length === 1) return { ...first, ...runInfo(o) };
    return { runs, notes_ratio: o.sizes[o.sizes.length - 1] / o.sizes[0], ratios: ratios(first, last), ...runInfo(o) };
  } finally {
    if (!o.keep) rmSync(base, { recursive: true, force: true });
  }
}

/** The query figures both report shapes give: 95th percentiles of each kind of query. */
function queryFigures(times: { semantic: number[]; vector: number[]; vectorCpu: number[]; text: number[]; textCpu: number[]; textMainCpu: number[] }): Record<string, number> {
  return {
    query_ms_p95: p95(times.semantic),
    vector_query_ms_p95: p95(times.vector),
    vector_query_cpu_ms_p95: p95(times.vectorCpu),
    text_query_ms_p95: p95(times.text),
    text_query_cpu_ms_p95: p95(times.textCpu),
    text_query_main_cpu_ms_p95: p95(times.textMainCpu),
  };
}
