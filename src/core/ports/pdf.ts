/**
 * Text of a PDF, page by page. Implemented over pdf.js: Obsidian's own copy in the app (`loadPdfJs()`), the
 * `pdfjs-dist` package headless (src/core/pdf/pdfjs-text.ts holds the part both share).
 */
export interface PdfTextPort {
  /** Opens a PDF from its bytes. Rejects with PdfError "unreadable" when the bytes are not a PDF it can read. */
  open(data: ArrayBuffer): Promise<PdfDocumentText>;
}

/** An opened PDF. Free it with `close()` when done. */
export interface PdfDocumentText {
  /** Number of pages (at least 1). */
  readonly pageCount: number;
  /** The text of a page (1-based), one line of the page per line; "" for a page without a text layer. */
  pageText(page: number): Promise<string>;
  /** Frees what pdf.js holds for the document. */
  close(): Promise<void>;
}

export type PdfErrorCode = "unreadable" | "encrypted";

/** A PDF that cannot be read, with a sentence the user (and the model) can act on. */
export class PdfError extends Error {
  constructor(
    message: string,
    readonly code: PdfErrorCode,
  ) {
    super(message);
    this.name = "PdfError";
  }
}
