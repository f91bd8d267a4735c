/**
 * PdfTextPort over a pdf.js library object: the same code for Obsidian's copy (`loadPdfJs()`) and for the
 * `pdfjs-dist` package headless, which differ only in how the library is loaded.
 */
import { PdfError, type PdfDocumentText, type PdfTextPort } from "../ports/pdf";
import { pageLines } from "./page-lines";

/** The part of pdf.js's API this uses. */
export interface PdfJsLib {
  getDocument(source: Record<string, unknown>): { promise: Promise<PdfJsDocument>; destroy?(): Promise<void> };
}

interface PdfJsDocument {
  numPages: number;
  getPage(page: number): Promise<{ getTextContent(): Promise<{ items: unknown[] }>; cleanup?(): unknown }>;
  destroy(): Promise<void>;
}

export class PdfJsText implements PdfTextPort {
  private lib: Promise<PdfJsLib> | null = null;

  constructor(
    /** Loads pdf.js once, when the first PDF is opened. */
    private readonly load: () => Promise<PdfJsLib>,
    /** Extra getDocument options (headless: no font loading, no eval). */
    private readonly options: Record<string, unknown> = {},
  ) {}

  async open(data: ArrayBuffer): Promise<PdfDocumentText> {
    this.lib ??= this.load();
    const lib = await this.lib;
    // pdf.js takes ownership of the buffer it is given (it may transfer it to its worker): give it a copy.
    const task = lib.getDocument({ data: new Uint8Array(data.slice(0)), isEvalSupported: false, stopAtErrors: false, verbosity: 0, ...this.options });
    let doc: PdfJsDocument;
    try {
      doc = await task.promise;
    } catch (err) {
      const name = (err as { name?: string } | null)?.name;
      if (name === "PasswordException") throw new PdfError("This PDF is protected by a password, so its text cannot be read.", "encrypted");
      throw new PdfError(`This file could not be read as a PDF (${(err as Error)?.message ?? String(err)}).`, "unreadable");
    }
    return {
      pageCount: doc.numPages,
      async pageText(page: number): Promise<string> {
        const p = await doc.getPage(page);
        const content = await p.getTextContent();
        p.cleanup?.();
        return pageLines(content.items);
      },
      close: () => doc.destroy(),
    };
  }
}
