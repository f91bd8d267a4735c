/**
 * The app's PdfTextPort: Obsidian's own pdf.js (`loadPdfJs()`, the copy its PDF view uses, parsing in its worker),
 * so main.js carries no PDF code of its own and reading a PDF sends nothing anywhere.
 */
import { loadPdfJs } from "obsidian";
import type { PdfTextPort } from "../../core/ports/pdf";
import { PdfJsText, type PdfJsLib } from "../../core/pdf/pdfjs-text";

export function obsidianPdfText(): PdfTextPort {
  return new PdfJsText(async () => (await loadPdfJs()) as PdfJsLib);
}
