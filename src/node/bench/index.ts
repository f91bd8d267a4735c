/**
 * `bench index [--notes N] [--embed-threads N] [--batch B] [--embedder test-model|hash] [--dim D] [--keep DIR]`:
 * builds the memory of a generated vault (10,000 notes by default) with the generated test model as the
 * embedder on `--embed-threads` threads (default 1), or, with `--embedder hash`, an in-process hashing
 * embedder to measure everything else at full scale, through the real engine host and its vectra index;
 * then measures restarts, queries, a one-note update and renaming a folder of 500 notes (a fifth of the
 * vault when it is smaller). The JSON object:
 * notes, chunks, total_ms, embed_ms, embeddings_per_s (chunks embedded per second of embedding),
 * overhead_ratio (non-embedding time / total), index_bytes, load_ms (the vector index, in the host),
 * text_load_ms (manifest and text index), load_both_ms (both together, as at a start; the *_cpu_ms
 * twins: CPU time of this process and the host, what the load costs on an idle machine), query_ms_p95
 * (semantic: embed the query + vector search), update_one_ms (one modified note until searchable,
 * excluding its own embedding; update_flush_ms: writing the index file), rename_folder_ms (and _cpu_ms) and
 * rename_reembedded (the folder renamed, one rename event per note as Obsidian sends them, until the
 * index has followed; goal 0 re-embedded), rename_offline_ms and rename_offline_reembedded (renamed
 * back while the app was closed, then a build), max_block_ms (longest event-loop block in this process
 * while indexing, measured with a 10 ms timer; max_block_cpu_ms: the same capped by the main thread's CPU use),
 * edit_max_block_ms (the same from the one-note update through the folder rename and the save that follows), plus
 * the codec comparison (the compact codec vs vectra's protobuf and JSON on the built index).
 * `--store flat [--precision float32|int8]`: the flat vector store and the full-text index in this process,
 * as on Obsidian mobile (no engine host unless the test model embeds); load_max_block_ms is then the longest
 * block of this process's event loop while both indexes load, and flat_compare the file at both precisions.
 */
import { mkdtempSync, rmSync, statSync, readdirSync, readFileSync, appendFileSync, renameSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs, UsageError } from "../cli-types";
import { generateVault } from "../vault-generator/generate-vault";
import { openFolderMemory, type FolderMemory } from "../folder-vault/folder-memory";
import { defaultTestModelPath } from "../compose";
import { loadVectra } from "../../host/vector/vectra-loader";
import { CompactCodec } from "../../host/vector/compact-codec";
import { decodeFlatIndex, encodeFlatIndex, type FlatPrecision } from "../../engine/vector/flat-codec";
import { FLAT_FILE } from "../../engine/vector/flat-store";

function log(line: string): void {
  process.stderr.write(`[bench index] ${line}\n`);
}

/**
 * CPU milliseconds of this process's main thread (the event loop's), from Linux's per-thread schedstat (nanoseconds);
 * elsewhere the whole process's CPU time, which also counts the collector's helper threads.
 */
function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    const cpu = process.cpuUsage();
    return (cpu.user + cpu.system) / 1000;
  }
}

/**
 * Longest gap between 10 ms ticks, minus the 10 ms: how long the event loop was blocked. On a shared
 * machine a gap can also be the OS running other processes, so each gap is also capped by the CPU time
 * the main thread used in it (`cpuMax`): a gap with little CPU of ours was not our code blocking.
 */
function blockMeter(): { stop(): { max: number; cpuMax: number } } {
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  let max = 0;
  let cpuMax = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    const gap = now - last - 10;
    max = Math.max(max, gap);
    cpuMax = Math.max(cpuMax, Math.min(gap, cpu - lastCpu - 10));
    last = now;
    lastCpu = cpu;
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return { max: Math.max(0, Math.round(max)), cpuMax: Math.max(0, Math.round(cpuMax)) };
    },
  };
}

/**
 * CPU milliseconds used so far by this process and the engine host together (the host's from
 * /proc, on Linux; elsewhere only ours). On a shared machine wall time mostly measures the other
 * processes; CPU time is what the same load costs on an idle one.
 */
function cpuMs(hostPid: number | undefined): number {
  const own = process.cpuUsage();
  let host = 0;
  if (hostPid !== undefined) {
    try {
      // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): user and system time in clock ticks.
      const fields = readFileSync(`/proc/${hostPid}/stat`, "utf8").split(") ")[1].split(" ");
      host = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
    } catch {
      host = 0;
    }
  }
  return (own.user + own.system) / 1000 + host;
}

/** Wall and CPU milliseconds of one step. */
async function timed<T>(hostPid: number | undefined, step: () => Promise<T>): Promise<{ ms: number; cpuMs: number; value: T }> {
  const c0 = cpuMs(hostPid);
  const t0 = performance.now();
  const value = await step();
  return { ms: performance.now() - t0, cpuMs: cpuMs(hostPid) - c0, value };
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? folderBytes(p) : statSync(p).size;
  }
  return total;
}

/** A deterministic bag-of-words vector: stands in for a model when only the indexing overhead is measured. */
function hashVector(text: string, dim: number): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const w of text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619);
    v[(h >>> 0) % dim] += 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] * 10) / 10;
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
  "index [--notes N] [--embed-threads N] [--batch B] [--embedder test-model|hash] [--store host|flat] [--precision float32|int8] [--dim D] [--seed S] [--keep DIR] [--json]   builds and reloads the memory of a generated vault (10,000 notes by default), then times queries, an update and a folder rename";

/** The benchmark's options, checked. */
function indexOptions(argv: string[]) {
  const { options } = parseArgs(argv, { strings: ["notes", "batch", "keep", "seed", "embedder", "dim", "embed-threads", "store", "precision"], booleans: [] });
  const store = ((options.store as string | undefined) ?? "host") as "host" | "flat";
  if (store !== "host" && store !== "flat") throw new UsageError('--store must be "host" (default: vectra in the engine host) or "flat".');
  const precision = ((options.precision as string | undefined) ?? "float32") as FlatPrecision;
  if (precision !== "float32" && precision !== "int8") throw new UsageError('--precision must be "float32" (default) or "int8".');
  const embedder = (options.embedder as string | undefined) ?? "test-model";
  if (embedder !== "test-model" && embedder !== "hash") throw new UsageError('--embedder must be "test-model" (default) or "hash".');
  const dim = options.dim === undefined ? 64 : Number(options.dim);
  const notes = options.notes === undefined ? 10_000 : Number(options.notes);
  if (!Number.isInteger(notes) || notes < 10) throw new UsageError("--notes must be a whole number of at least 10.");
  const batch = options.batch === undefined ? 32 : Number(options.batch);
  const threads = options["embed-threads"] === undefined ? 1 : Number(options["embed-threads"]);
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) throw new UsageError("--embed-threads must be a whole number from 1 to 256.");
  return { options, store, precision, embedder, dim, notes, batch, threads };
}

/** The generated vault, with a folder of up to 500 notes gathered under Batch/ before indexing (renamed later). */
function benchVault(root: string, notes: number, seed: number) {
  const t = performance.now();
  const generated = generateVault(root, { notes, seed });
  log(`generated ${generated.notes} notes (${(generated.bytes / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - t)} ms at ${root}`);
  // The folder renamed later: 500 notes (a fifth of a smaller vault), gathered under one folder before indexing.
  const folderNotes = Math.min(500, Math.floor(notes / 5));
  const batchPaths = generated.paths.slice(0, folderNotes).map((p) => `Batch/${p}`);
  for (let i = 0; i < folderNotes; i++) {
    mkdirSync(dirname(join(root, batchPaths[i])), { recursive: true });
    renameSync(join(root, generated.paths[i]), join(root, batchPaths[i]));
  }
  return { generated, folderNotes, batchPaths };
}

/** Semantic (embed the query + vector search) and full-text query times, three rounds of ten queries. */
async function timeQueries(search: FolderMemory["search"]): Promise<{ semanticTimes: number[]; textTimes: number[] }> {
  const queries = ["offline sync queue", "garden tomato", "meeting budget review", "running training plan", "vector embedding search", "kitchen recipe bread", "quarter goal roadmap", "travel train city", "bug fix deploy", "journal reflection habit"];
  const semanticTimes: number[] = [];
  const textTimes: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      let q0 = performance.now();
      await search.semanticSearch!(q, 8);
      semanticTimes.push(performance.now() - q0);
      q0 = performance.now();
      await search.textSearch(q, 8);
      textTimes.push(performance.now() - q0);
    }
  }
  return { semanticTimes, textTimes };
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const { options, store, precision, embedder, dim, notes, batch, threads } = indexOptions(argv);
  const root = typeof options.keep === "string" ? options.keep : mkdtempSync(join(tmpdir(), "bench-index-"));
  let memory: FolderMemory | null = null;
  try {
    let t = performance.now();
    const { generated, folderNotes, batchPaths } = benchVault(root, notes, options.seed === undefined ? 42 : Number(options.seed));
    const model = defaultTestModelPath();
    let lastLog = 0;
    const open = () =>
      openFolderMemory({
        vault: root,
        embedModel: embedder === "test-model" ? model : undefined,
        embed: embedder === "hash" ? { texts: (texts) => Promise.resolve(texts.map((t) => hashVector(t, dim))), modelKey: `hash-${dim}` } : undefined,
        threads,
        batchSize: batch,
        store,
        precision,
        onProgress: (p) => {
          if (p.phase === "embed" && Date.now() - lastLog > 5000) {
            lastLog = Date.now();
            log(`embedding ${p.done}/${p.total}${p.etaMs !== null ? `, ~${Math.round(p.etaMs / 1000)} s left` : ""}`);
          }
        },
        onNotice: (m) => log(`notice: ${m}`),
      });
    memory = await open();
    // Load the model before timing, so total_ms is indexing, not model loading.
    if (embedder === "test-model") await memory.engine!.embed(["warm up"]);
    await memory.vectors!.open();

    const meter = blockMeter();
    t = performance.now();
    const report = await memory.indexer.build();
    await memory.vectors!.flush();
    const totalMs = performance.now() - t;
    const maxBlock = meter.stop();
    log(`built: ${report.notes} notes, ${report.chunks} chunks, ${Math.round(totalMs)} ms (embedding ${Math.round(report.embedMs)} ms)`);

    // Restart: the host drops the index and reads it from disk; a fresh indexer loads manifest and text index.
    const vectorsFolder = join(memory.indexDir, "vectors");
    const restart = async () => {
      if (store === "host") await memory!.engine!.request("vector.close", { folder: vectorsFolder });
      await memory!.close();
      memory = await open();
      // The host process is up (and the model loaded) before timing, as when Obsidian has been open a while.
      if (embedder === "test-model") await memory.engine!.embed(["warm up"]);
      else await memory.engine?.request("status", {});
      return memory;
    };
    memory = await restart();
    const vectorLoad = await timed(memory.engine?.hostPid, () => memory!.vectors!.open());
    const textLoad = await timed(memory.engine?.hostPid, () => memory!.indexer.load());
    const loadMs = vectorLoad.ms;
    const textLoadMs = textLoad.ms;
    const rebuild = await memory.indexer.build();
    // Both at once, as at a start: the vector index and the text index load in the same host.
    memory = await restart();
    const loadMeter = blockMeter();
    const bothLoad = await timed(memory.engine?.hostPid, () => Promise.all([memory!.vectors!.open(), memory!.indexer.load()]));
    const loadBlock = loadMeter.stop();
    const loadBothMs = bothLoad.ms;
    log(`restart: vector index loaded in ${Math.round(loadMs)} ms, text index and manifest in ${Math.round(textLoadMs)} ms; re-embedded ${rebuild.embedded} chunks, read ${rebuild.read} notes`);

    // Queries: semantic (embed the query + vector search in the host) and full-text.
    const { semanticTimes, textTimes } = await timeQueries(memory.search);

    // One modified note: time the update, less the note's own embedding.
    const target = generated.paths[Math.floor(generated.paths.length / 2)];
    appendFileSync(join(root, target), "\n## Added in the benchmark\nA new paragraph about offline sync and garden tomatoes.\n");
    // Longest block from this edit through the folder rename and the save of manifest and text index.
    const editMeter = blockMeter();
    t = performance.now();
    const update = await memory.indexer.updateNote(target);
    // Searchable now; the host writes the index file in the background (write-behind), timed separately.
    const updateMs = performance.now() - t;
    const updateOneMs = updateMs - update.embedMs;
    t = performance.now();
    await memory.vectors!.flush();
    const persistMs = performance.now() - t;

    // A folder of notes renamed in the app: one rename event per note, as Obsidian sends them.
    renameSync(join(root, "Batch"), join(root, "Renamed batch"));
    const renaming = await timed(memory.engine?.hostPid, async () => {
      const r = await memory!.indexer.apply(batchPaths.map((p) => ({ kind: "rename" as const, oldPath: p, path: p.replace(/^Batch\//, "Renamed batch/") })));
      await memory!.vectors!.flush();
      return r;
    });
    const renamed = renaming.value;
    const renameMs = renaming.ms;
    log(`renamed a folder of ${folderNotes} notes: ${Math.round(renameMs)} ms, ${renamed.embedded} chunks embedded, ${renamed.relabeled} relabeled`);
    // Renamed back while the app was closed: the next build finds the vectors by their text.
    await memory.indexer.close();
    const editBlock = editMeter.stop();
    renameSync(join(root, "Renamed batch"), join(root, "Batch"));
    memory = await restart();
    t = performance.now();
    const offline = await memory.indexer.build();
    await memory.vectors!.flush();
    const offlineMs = performance.now() - t;
    log(`renamed back offline: build ${Math.round(offlineMs)} ms, ${offline.embedded} chunks embedded, ${offline.relabeled} relabeled`);

    const indexBytes = folderBytes(memory.indexDir);
    const codecs = store === "host" ? await compareCodecs(join(vectorsFolder, "index.vec")) : await compareFlat(join(vectorsFolder, FLAT_FILE));
    return {
      notes: report.notes,
      chunks: report.chunks,
      total_ms: Math.round(totalMs),
      embed_ms: Math.round(report.embedMs),
      embeddings_per_s: report.embedMs > 0 ? Math.round((report.embedded / report.embedMs) * 1000 * 10) / 10 : null,
      overhead_ratio: Math.round(((totalMs - report.embedMs) / totalMs) * 1000) / 1000,
      index_bytes: indexBytes,
      load_ms: Math.round(loadMs),
      query_ms_p95: p95(semanticTimes),
      update_one_ms: Math.round(updateOneMs * 10) / 10,
      max_block_ms: maxBlock.max,
      max_block_cpu_ms: maxBlock.cpuMax,
      text_load_ms: Math.round(textLoadMs),
      load_both_ms: Math.round(loadBothMs),
      load_cpu_ms: Math.round(vectorLoad.cpuMs),
      text_load_cpu_ms: Math.round(textLoad.cpuMs),
      load_both_cpu_ms: Math.round(bothLoad.cpuMs),
      load_max_block_ms: loadBlock.max,
      load_max_block_cpu_ms: loadBlock.cpuMax,
      edit_max_block_ms: editBlock.max,
      edit_max_block_cpu_ms: editBlock.cpuMax,
      text_query_ms_p95: p95(textTimes),
      update_embedded_chunks: update.embedded,
      update_flush_ms: Math.round(persistMs),
      restart_reembedded: rebuild.embedded,
      rename_folder_notes: folderNotes,
      rename_folder_ms: Math.round(renameMs),
      rename_folder_cpu_ms: Math.round(renaming.cpuMs),
      rename_reembedded: renamed.embedded,
      rename_relabeled: renamed.relabeled,
      rename_offline_ms: Math.round(offlineMs),
      rename_offline_reembedded: offline.embedded,
      batch,
      embed_threads: threads,
      embedder: embedder === "test-model" ? `test-model (generated GGUF, threads ${threads})` : `hash (${dim} dims, in-process; measures everything but embedding)`,
      store: store === "host" ? "vectra in the engine host" : `flat, ${precision}, in this process (full-text index here too)`,
      codec: store === "host" ? "compact" : `flat ${precision}`,
      [store === "host" ? "codec_compare" : "flat_compare"]: codecs,
    };
  } finally {
    await memory?.close().catch(() => undefined);
    if (typeof options.keep !== "string") rmSync(root, { recursive: true, force: true });
  }
}
