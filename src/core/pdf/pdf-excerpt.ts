/**
 * What "Ask about this PDF" attaches to the next message: the page open in the PDF view and the pages after it, up to
 * a size, each headed by the link that opens it, so the answer can cite its page; pdf:read reads the rest.
 */
import type { VaultPort } from "../ports/vault";
import type { PdfTextPort } from "../ports/pdf";

/** Characters attached at most (about 1,500 tokens); the page the view shows is attached whole or clipped to this. */
const DEFAULT_MAX_CHARS = 6000;

export async function pdfExcerpt(vault: VaultPort, pdf: PdfTextPort, path: string, page: number, maxChars = DEFAULT_MAX_CHARS): Promise<{ label: string; text: string }> {
  const doc = await pdf.open(await vault.readBinary(path));
  try {
    const first = Math.min(Math.max(1, Math.floor(page)), doc.pageCount);
    const blocks: string[] = [];
    let used = 0;
    let last = first;
    let anyText = false;
    for (let p = first; p <= doc.pageCount; p++) {
      const text = await doc.pageText(p);
      if (blocks.length > 0 && used + text.length > maxChars) break;
      const shown = text.length > maxChars ? `${text.slice(0, maxChars)}…` : text;
      anyText ||= shown.trim() !== "";
      blocks.push(`[[${path}#page=${p}]]\n${shown.trim() === "" ? "(no text on this page)" : shown}`);
      used += shown.length;
      last = p;
    }
    const label = last === first ? `${path} (page ${first})` : `${path} (pages ${first}–${last})`;
    const head = `The PDF "${path}" has ${doc.pageCount} page${doc.pageCount === 1 ? "" : "s"}; the user has page ${first} open.`;
    if (!anyText) return { label, text: `${head} These pages have no text layer (a scanned image), so their text cannot be read; text recognition (OCR) is not supported.` };
    const rest = last + 1 === doc.pageCount ? `Page ${doc.pageCount}` : `Pages ${last + 1}–${doc.pageCount}`;
    const more = last < doc.pageCount ? ` ${rest} can be read with pdf:read.` : "";
    return { label, text: `${head} Cite pages as their links.${more}\n\n${blocks.join("\n\n")}` };
  } finally {
    await doc.close();
  }
}
