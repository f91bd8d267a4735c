/**
 * `bench pdf-index [--pages N] [--per-pdf N] [--json]`: the memory index built over PDFs in the background, as the
 * plugin does: `--pages` PDF pages (default 1,000) in PDFs of `--per-pdf` pages (default 100), each page about 40
 * lines of generated prose, written as real PDF files into a folder vault, then indexed (the full-text index in
 * this process). Measures the longest block of this process's event loop while indexing (a 1 ms timer chain: the
 * largest gap between two of its ticks), twice: with pdf.js in this thread (headless: pdfjs-dist parses on the
 * main thread; max_block_ms, after pdf.js's first load, measured apart as pdfjs_load_block_ms) and with the pages' text served from outside this thread, as Obsidian's pdf.js does
 * from its worker (max_block_app_ms). Each also capped by this process's CPU time in the gap (*_cpu_ms): on a busy
 * machine a gap is also time spent waiting for a core. The goal is no block over 50 ms (one frame missed at most).
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "../cli-types";
import { FolderVault } from "../folder-vault/folder-vault";
import { nodePdfText } from "../pdf/node-pdf-text";
import { makeTextPdf } from "../pdf/make-pdf";
import { Indexer } from "../../core/memory/indexer";
import { LocalTextStore } from "../../core/memory/text-store";
import { SourceTexts } from "../../core/memory/source-text";
import type { IndexStore } from "../../core/ports/index-store";
import type { PdfTextPort } from "../../core/ports/pdf";

export const usage = "pdf-index [--pages N] [--per-pdf N] [--json]   1,000 PDF pages indexed in the background: the longest event-loop block (pdf.js in this thread, and served from a worker as in the app)";

function log(line: string): void {
  process.stderr.write(`[bench pdf-index] ${line}\n`);
}

const WORDS = "garden soil water tomato basil harvest irrigation compost seed row bed north south sun shade leaf root yield week report measure team plan budget season frost rain drip moisture reading table figure chapter section result method sample".split(" ");

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** About 40 lines of 10-14 words: a page of a report. */
function pageLines(rand: () => number, page: number): string[] {
  const lines = [`Section ${page}`];
  for (let i = 0; i < 40; i++) {
    const n = 10 + Math.floor(rand() * 5);
    lines.push(Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" "));
  }
  return lines;
}

/**
 * The longest gap between ticks of a 1 ms timer chain while `work` runs (maxMs), and the same capped by the CPU time
 * this process used in that gap (maxCpuMs: on a busy machine a gap is also time the process waited for a core).
 */
async function longestBlock(work: () => Promise<unknown>): Promise<{ maxMs: number; maxCpuMs: number; totalMs: number }> {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let max = 0;
  let maxCpu = 0;
  let running = true;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    max = Math.max(max, now - last);
    maxCpu = Math.max(maxCpu, Math.min(now - last, (cpu.user + cpu.system) / 1000));
    last = now;
    lastCpu = process.cpuUsage();
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const start = performance.now();
  await work();
  running = false;
  const totalMs = performance.now() - start;
  const round = (x: number) => Math.round(x * 10) / 10;
  return { maxMs: round(max), maxCpuMs: round(maxCpu), totalMs: Math.round(totalMs) };
}

/** Pages' text answered after a timer, as a worker's reply arrives: pdf.js's parsing is not on this thread. */
function fromWorker(texts: Map<number, string[]>, sizes: number[]): PdfTextPort {
  const reply = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 0));
  return {
    async open(data) {
      const pages = texts.get(data.byteLength) ?? texts.get(sizes.find((s) => s === data.byteLength) ?? -1)!;
      return reply({ pageCount: pages.length, pageText: (p: number) => reply(pages[p - 1]), close: () => reply(undefined) });
    },
  };
}

async function build(root: string, pdf: PdfTextPort): Promise<{ maxMs: number; maxCpuMs: number; totalMs: number; notes: number; chunks: number }> {
  const vault = new FolderVault(root, { watch: false });
  const saved = new Map<string, string>();
  const indexStore: IndexStore = { load: async (k) => saved.get(k) ?? null, save: async (k, t) => void saved.set(k, t), remove: async (k) => void saved.delete(k) };
  const indexer = new Indexer({ vault, sources: new SourceTexts(vault, pdf), indexStore, text: new LocalTextStore(indexStore), vectors: null, embed: null });
  let report = { notes: 0, chunks: 0 };
  const block = await longestBlock(async () => {
    report = await indexer.build();
  });
  vault.close();
  return { ...block, notes: report.notes, chunks: report.chunks };
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const args = parseArgs(argv, { strings: ["pages", "per-pdf"] });
  const total = Number(args.options.pages ?? 1000);
  const perPdf = Number(args.options["per-pdf"] ?? 100);
  const root = mkdtempSync(join(tmpdir(), "bench-pdf-index-"));
  try {
    mkdirSync(join(root, "Papers"));
    const rand = seeded(7);
    const texts = new Map<number, string[]>();
    const sizes: number[] = [];
    for (let first = 1, n = 0; first <= total; first += perPdf, n++) {
      const count = Math.min(perPdf, total - first + 1);
      const pages = Array.from({ length: count }, (_, i) => pageLines(rand, first + i));
      const bytes = makeTextPdf(pages);
      writeFileSync(join(root, "Papers", `Report ${n + 1}.pdf`), bytes);
      texts.set(bytes.byteLength, pages.map((p) => p.join("\n")));
      sizes.push(bytes.byteLength);
    }
    log(`${total} pages in ${sizes.length} PDFs written; indexing with pdf.js in this thread…`);
    // pdf.js's first load (compiling its 2 MB of modules) is one block of its own, once per process: measured apart.
    const pdf = nodePdfText();
    const load = await longestBlock(async () => (await pdf.open(makeTextPdf([["warm up"]]).slice().buffer)).close());
    log(`pdf.js loaded: longest block ${load.maxMs} ms (CPU ${load.maxCpuMs} ms)`);
    const inThread = await build(root, pdf);
    log(`pdf.js in this thread: longest block ${inThread.maxMs} ms (CPU ${inThread.maxCpuMs} ms), ${inThread.totalMs} ms in all`);
    rmSync(join(root, ".obsidian"), { recursive: true, force: true });
    const app = await build(root, fromWorker(texts, sizes));
    log(`pages from a worker (as in the app): longest block ${app.maxMs} ms (CPU ${app.maxCpuMs} ms), ${app.totalMs} ms in all`);
    return {
      pages: total,
      pdfs: sizes.length,
      chunks: inThread.chunks,
      pdfjs_load_block_ms: load.maxMs,
      pdfjs_load_block_cpu_ms: load.maxCpuMs,
      max_block_ms: inThread.maxMs,
      max_block_cpu_ms: inThread.maxCpuMs,
      total_ms: inThread.totalMs,
      max_block_app_ms: app.maxMs,
      max_block_app_cpu_ms: app.maxCpuMs,
      total_app_ms: app.totalMs,
      goal_ms: 50,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
