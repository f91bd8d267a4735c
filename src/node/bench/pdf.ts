/**
 * `bench pdf [--dir D]... [--pages N] [--limit N] [--json]`: PDF text per page against poppler's pdftotext, the
 * reference, on real PDFs found on this machine (Debian's documentation packages: /usr/share/doc). For each PDF, up
 * to `--pages` pages (default 40, evenly spaced) are read with pdf.js (pdfjs-dist, as the CLI reads them) and with
 * `pdftotext`, both folded (whitespace runs to one space), and compared by character similarity (2·LCS / total
 * length). Reports each PDF's similarity, the count, the mean and the lowest, and the same for words in any order
 * (word_similarity: 2·shared words / all words), which tells a difference in reading order from one in the text.
 * Skipped, with a sentence saying why, when pdftotext is not installed (`apt-get install poppler-utils`) or no PDF
 * is found.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodePdfText } from "../pdf/node-pdf-text";
import { DEFAULT_PDF_ROOTS, findPdfs } from "../pdf/find-pdfs";
import { ratioOf, tallyPair, wordRatioOf, type SimilarityTally } from "../pdf/text-similarity";

export const usage = "pdf [--dir D]... [--pages N] [--limit N] [--json]   PDF text per page vs poppler's pdftotext on real PDFs (default: /usr/share/doc): character similarity after whitespace folding";

function log(line: string): void {
  process.stderr.write(`[bench pdf] ${line}\n`);
}

/** Whether poppler's pdftotext can be run. */
export function hasPdftotext(): boolean {
  try {
    execFileSync("pdftotext", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** pdftotext's text of each page (its pages end with a form feed). */
function referencePages(file: string): string[] {
  const text = execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { maxBuffer: 256 * 1024 * 1024 }).toString("utf8");
  const pages = text.split("\f");
  if (pages.length > 1 && pages[pages.length - 1].trim() === "") pages.pop();
  return pages;
}

/** Up to `n` page numbers spread evenly over 1..count. */
export function samplePages(count: number, n: number): number[] {
  if (count <= n) return Array.from({ length: count }, (_, i) => i + 1);
  return Array.from({ length: n }, (_, i) => 1 + Math.floor((i * (count - 1)) / (n - 1)));
}

export interface PdfSimilarity {
  file: string;
  pages: number;
  compared: number;
  similarity: number;
  /** The same texts as words in any order: what differs in order alone does not count. */
  word_similarity: number;
}

/** One PDF's similarity with pdftotext over the sampled pages. */
export async function compareWithPdftotext(file: string, maxPages: number): Promise<PdfSimilarity> {
  const reference = referencePages(file);
  const bytes = readFileSync(file);
  const doc = await nodePdfText().open(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const tally: SimilarityTally = { common: 0, total: 0 };
  const pages = samplePages(doc.pageCount, maxPages);
  try {
    for (const page of pages) tallyPair(tally, await doc.pageText(page), reference[page - 1] ?? "");
  } finally {
    await doc.close();
  }
  return { file, pages: doc.pageCount, compared: pages.length, similarity: Math.round(ratioOf(tally) * 10000) / 10000, word_similarity: Math.round(wordRatioOf(tally) * 10000) / 10000 };
}

function option(argv: string[], name: string): string[] {
  const out: string[] = [];
  argv.forEach((a, i) => a === name && argv[i + 1] !== undefined && out.push(argv[i + 1]));
  return out;
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  if (!hasPdftotext()) {
    const reason = "pdftotext (poppler-utils) is not installed, so there is no reference to compare with; install it with apt-get install poppler-utils.";
    log(`skipped: ${reason}`);
    return { skipped: reason };
  }
  const dirs = option(argv, "--dir");
  const maxPages = Number(option(argv, "--pages")[0] ?? 40);
  const limit = Number(option(argv, "--limit")[0] ?? Infinity);
  const unpack = mkdtempSync(join(tmpdir(), "bench-pdf-"));
  try {
    const files = findPdfs(dirs.length ? dirs : DEFAULT_PDF_ROOTS, unpack, limit);
    if (files.length === 0) {
      const reason = `No PDF was found under ${(dirs.length ? dirs : DEFAULT_PDF_ROOTS).join(", ")}; Debian's documentation packages (r-doc-pdf, glpk-doc, …) ship some.`;
      log(`skipped: ${reason}`);
      return { skipped: reason };
    }
    const results: PdfSimilarity[] = [];
    for (const file of files) {
      try {
        const r = await compareWithPdftotext(file, maxPages);
        results.push(r);
        log(`${r.similarity.toFixed(4)} (words ${r.word_similarity.toFixed(4)})  ${r.compared}/${r.pages} pages  ${file}`);
      } catch (err) {
        log(`could not compare ${file}: ${(err as Error).message}`);
      }
    }
    const sims = results.map((r) => r.similarity);
    return {
      pdfs: results.length,
      pages_compared: results.reduce((n, r) => n + r.compared, 0),
      mean_similarity: Math.round((sims.reduce((a, b) => a + b, 0) / Math.max(1, sims.length)) * 10000) / 10000,
      min_similarity: sims.length ? Math.min(...sims) : null,
      at_least_098: sims.filter((s) => s >= 0.98).length,
      mean_word_similarity: Math.round((results.reduce((a, r) => a + r.word_similarity, 0) / Math.max(1, results.length)) * 10000) / 10000,
      words_at_least_098: results.filter((r) => r.word_similarity >= 0.98).length,
      results,
    };
  } finally {
    rmSync(unpack, { recursive: true, force: true });
  }
}
