/**
 * The `pdf` family: `pdf:read`, a PDF's text page by page (pdf.js: Obsidian's own in the app, pdfjs-dist headless),
 * each page headed by the link that opens it (`[[file.pdf#page=3]]`) so answers cite their page. A scanned PDF
 * without a text layer is said to be one, in one sentence: there is no text recognition (OCR).
 */
import * as z from "zod";
import type { ToolContext, ToolDefinition } from "../core/protocol/tool";
import type { PdfDocumentText } from "../core/ports/pdf";
import { defineTool } from "./define-tool";
import { PATH_ALIASES, pathArg } from "./arg-schemas";
import { cleanPath, guardPath } from "./note-path";
import { ToolError } from "./tool-error";

/** Pages looked at before a PDF whose asked pages are empty is called a scan: all of a short one, else these many. */
const SCAN_PROBE_PAGES = 12;

/** A PDF path the model wrote: cleaned, `.pdf` added when no extension was given; another extension is refused. */
export function pdfPath(raw: string): string {
  const p = cleanPath(raw);
  const name = p.split("/").pop() ?? p;
  if (/\.pdf$/i.test(name)) return p;
  if (/\.[A-Za-z0-9]{1,5}$/.test(name)) throw new ToolError(`"${p}" is not a PDF; read notes with vault:read.`, "bad_args");
  return `${p}.pdf`;
}

/** Pages asked for ("3", "2-5", "1,4-6"), in order, each once, checked against the page count. */
export function parsePages(spec: string | undefined, count: number, path: string): number[] {
  if (spec === undefined || spec.trim() === "") return Array.from({ length: count }, (_, i) => i + 1);
  const pages: number[] = [];
  for (const part of spec.split(",")) {
    const [a, b] = part.trim().split("-").map((x) => Number(x.trim()));
    const from = a;
    const to = b === undefined ? a : b;
    if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from) {
      throw new ToolError(`"${spec}" is not a page range; write pages as "3", "2-5" or "1,4-6".`, "bad_args");
    }
    if (from > count) throw new ToolError(`"${path}" has ${count} page${count === 1 ? "" : "s"}, so it has no page ${from}.`, "not_found");
    for (let p = from; p <= Math.min(to, count); p++) if (!pages.includes(p)) pages.push(p);
  }
  return pages;
}

/** "2–5" for consecutive pages, else the list. */
function pagesLabel(pages: number[]): string {
  if (pages.length === 1) return `page ${pages[0]}`;
  const consecutive = pages.every((p, i) => i === 0 || p === pages[i - 1] + 1);
  return consecutive ? `pages ${pages[0]}–${pages[pages.length - 1]}` : `pages ${pages.join(", ")}`;
}

/** Whether none of the first pages has any text: a scan without a text layer. */
async function isScan(doc: PdfDocumentText, seen: Map<number, string>): Promise<boolean> {
  const probe = doc.pageCount <= SCAN_PROBE_PAGES * 2 ? doc.pageCount : SCAN_PROBE_PAGES;
  for (let p = 1; p <= probe; p++) {
    const text = seen.get(p) ?? (await doc.pageText(p));
    if (text.trim() !== "") return false;
  }
  return true;
}

async function openPdf(ctx: ToolContext, path: string): Promise<PdfDocumentText> {
  if (!ctx.pdf) throw new ToolError("PDFs cannot be read here: this host has no PDF reader.", "unavailable");
  if (!(await ctx.vault.stat(path))) throw new ToolError(`There is no PDF at "${path}"; find the right path with vault:list.`, "not_found");
  try {
    return await ctx.pdf.open(await ctx.vault.readBinary(path));
  } catch (err) {
    throw new ToolError((err as Error).message || `"${path}" could not be read as a PDF.`, "bad_args");
  }
}

const read = defineTool({
  name: "pdf:read",
  family: "pdf",
  description:
    "Read a PDF's text, page by page; each page starts with the link that opens it, to cite the page. Pass `pages` (\"3\", \"2-5\", \"1,4-6\") to read only those; a long PDF comes back a few pages per call.",
  routingHints: ["read the pdf", "what does the pdf say", "summarize this pdf", "open the pdf document", "page 3 of the paper", "read the attached paper", "the pdf manual, chapter 2"],
  args: z.object({
    path: pathArg("Vault-relative path of the PDF, e.g. Papers/Report.pdf"),
    pages: z
      .string()
      // The pattern's own bound (119 characters): a shorter maxLength beside it would relax the grammar.
      .max(119)
      .regex(/^\d{1,5}(-\d{1,5})?(,\d{1,5}(-\d{1,5})?){0,9}$/)
      .optional()
      .describe('Pages to read: "3", "2-5" or "1,4-6" (default: from page 1, as many as fit).'),
  }),
  aliases: { ...PATH_ALIASES, page: "pages", page_range: "pages", range: "pages" },
  effect: "read",
  pathArgs: ["path"],
  existingPaths: ["path"],
  pathKinds: { path: ["pdf"] },
  async handler(args, ctx) {
    const path = pdfPath(guardPath(cleanPath(args.path), ctx));
    const doc = await openPdf(ctx, path);
    try {
      const asked = parsePages(args.pages, doc.pageCount, path);
      const budget = ctx.settings.readPageChars;
      const seen = new Map<number, string>();
      const blocks: string[] = [];
      const read: number[] = [];
      let used = 0;
      for (const page of asked) {
        const text = await doc.pageText(page);
        seen.set(page, text);
        // Whole pages while they fit; the first page always (clipped when it alone is over the budget).
        if (read.length > 0 && used + text.length > budget) break;
        const shown = text.length > budget ? `${text.slice(0, budget)}… (the rest of this page is cut)` : text;
        blocks.push(`[[${path}#page=${page}]]\n${shown.trim() === "" ? "(no text on this page)" : shown}`);
        read.push(page);
        used += shown.length;
      }
      if (read.every((p) => (seen.get(p) ?? "").trim() === "") && (await isScan(doc, seen))) {
        const content = `"${path}" has no text layer (it is a scanned image), so its text cannot be read; text recognition (OCR) is not supported.`;
        return { content, data: { path, pageCount: doc.pageCount, pages: read, scanned: true }, empty: true };
      }
      const rest = asked.slice(read.length);
      const next = rest.length === 0 ? "" : `\n… more follows: read again with pages="${rest[0]}${rest.length > 1 ? `-${rest[Math.min(rest.length, read.length + 2) - 1]}` : ""}".`;
      const header = `${path}, ${pagesLabel(read)} of ${doc.pageCount}`;
      return {
        content: `${header}\n\n${blocks.join("\n\n")}${next}`,
        data: { path, pageCount: doc.pageCount, pages: read, texts: read.map((p) => seen.get(p) ?? ""), nextPage: rest[0] ?? null },
      };
    } finally {
      await doc.close();
    }
  },
});

export const pdfTools: ToolDefinition[] = [read];
