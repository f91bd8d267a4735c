/**
 * The headless PdfTextPort: pdf.js from the `pdfjs-dist` package (its legacy build, which runs in plain Node),
 * loaded on the first PDF. Never part of main.js: the plugin reads PDFs with Obsidian's own pdf.js.
 */
import type { PdfTextPort } from "../../core/ports/pdf";
import { PdfJsText } from "../../core/pdf/pdfjs-text";

export function nodePdfText(): PdfTextPort {
  return new PdfJsText(async () => await import("pdfjs-dist/legacy/build/pdf.mjs"), {
    // Text only: no fonts to load, no canvas, no system fonts to look up.
    disableFontFace: true,
    useSystemFonts: false,
  });
}
