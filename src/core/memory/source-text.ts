/**
 * What the memory index reads, and how each kind of file becomes text: a note as it is, a canvas as its cards,
 * file titles, group labels and connections (canvasText), a PDF as its pages' text, pages separated by a form feed
 * (only when the host can read PDFs). Search hits in a PDF name their page: `Papers/Report.pdf#page=3`, the link
 * that opens the page in Obsidian.
 */
import type { VaultPort } from "../ports/vault";
import type { PdfTextPort } from "../ports/pdf";
import { canvasText } from "../canvas/text";
import { snippetFor } from "./snippet";
import { TimeSlices } from "./yield";

/** Between two pages of a PDF's indexed text. */
export const PAGE_BREAK = "\f";

/** A PDF's page as a link target: `file.pdf#page=3` (Obsidian opens the PDF at that page). */
export function pageLink(path: string, page: number): string {
  return `${path}#page=${page}`;
}

export function isPdf(path: string): boolean {
  return /\.pdf$/i.test(path);
}

export function isCanvas(path: string): boolean {
  return /\.canvas$/i.test(path);
}

/** The file a text-index document belongs to: a PDF page's (`file.pdf#page=3`) is the PDF. */
export function fileOfDoc(id: string): string {
  const i = id.lastIndexOf("#page=");
  return i < 0 ? id : id.slice(0, i);
}

/** The page of a PDF page's document id (`file.pdf#page=3` → 3); null for a whole file. */
export function pageOfDoc(id: string): number | null {
  const m = /#page=(\d+)$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** A PDF's indexed text, split back into its pages (page 1 first). */
export function pagesOf(text: string): string[] {
  return text.split(PAGE_BREAK);
}

/** PDFs whose pages were read lately, by path, while their size and time match. */
const CACHED_PDFS = 4;

export class SourceTexts {
  private readonly cache = new Map<string, { key: string; pages: string[] }>();

  constructor(
    private readonly vault: VaultPort,
    /** Reads PDFs; null where the host cannot (PDFs are then not indexed). */
    private readonly pdf: PdfTextPort | null = null,
  ) {}

  /** Whether the memory index holds this kind of file. */
  indexes(path: string): boolean {
    return /\.md$/i.test(path) || isCanvas(path) || (this.pdf !== null && isPdf(path));
  }

  /** A file's text as the index holds it; rejects as `vault.read` does when the file is gone. */
  async text(path: string): Promise<string> {
    if (isPdf(path)) return (await this.pages(path)).join(PAGE_BREAK);
    const raw = await this.vault.read(path);
    if (!isCanvas(path)) return raw;
    return canvasText(raw);
  }

  /** One page's text (1-based) of a PDF, without reading the others unless they are cached. */
  async page(path: string, page: number): Promise<string> {
    if (!this.pdf) throw new Error("PDFs cannot be read here.");
    const stat = await this.vault.stat(path);
    const hit = this.cache.get(path);
    if (hit && stat && hit.key === `${stat.mtime}:${stat.size}`) return hit.pages[page - 1] ?? "";
    const doc = await this.pdf.open(await this.vault.readBinary(path));
    try {
      return page >= 1 && page <= doc.pageCount ? await doc.pageText(page) : "";
    } finally {
      await doc.close();
    }
  }

  /** A PDF's pages' text, page 1 first ("" for a page without a text layer). */
  async pages(path: string): Promise<string[]> {
    if (!this.pdf) throw new Error("PDFs cannot be read here.");
    const stat = await this.vault.stat(path);
    const key = stat ? `${stat.mtime}:${stat.size}` : "";
    const hit = this.cache.get(path);
    if (hit && hit.key === key) return hit.pages;
    const doc = await this.pdf.open(await this.vault.readBinary(path));
    const pages: string[] = [];
    // Headless, pdf.js answers through promises alone and would hold the thread for the whole document: pause between pages.
    const slices = new TimeSlices();
    try {
      for (let p = 1; p <= doc.pageCount; p++) {
        await slices.maybePause();
        pages.push((await doc.pageText(p)).split(PAGE_BREAK).join(" "));
      }
    } finally {
      await doc.close();
    }
    this.cache.delete(path);
    this.cache.set(path, { key, pages });
    while (this.cache.size > CACHED_PDFS) this.cache.delete(this.cache.keys().next().value!);
    return pages;
  }

  /**
   * A hit's link and one line around its terms. A hit on a PDF's page (`file.pdf#page=3`, the index keeps a PDF's
   * pages apart) is that page's link and a line of it; a hit on a whole PDF (its name matched) names its best page
   * (the one with most of the terms); any other file's is its path.
   */
  async locate(id: string, terms: string[]): Promise<{ path: string; snippet: string }> {
    const page = pageOfDoc(id);
    if (page !== null) return { path: id, snippet: snippetFor(await this.page(fileOfDoc(id), page), terms) };
    const text = await this.text(id);
    if (!isPdf(id)) return { path: id, snippet: snippetFor(text, terms) };
    const pages = pagesOf(text);
    const lower = [...new Set(terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0))];
    let best = 0;
    let bestCount = -1;
    pages.forEach((text, i) => {
      const low = text.toLowerCase();
      const count = lower.filter((t) => low.includes(t)).length;
      if (count > bestCount) {
        best = i;
        bestCount = count;
      }
    });
    return { path: pageLink(id, best + 1), snippet: snippetFor(pages[best] ?? "", terms) };
  }
}
