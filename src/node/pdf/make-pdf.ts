/**
 * Writes small, valid PDFs (for tests and the PDF index benchmark): pages of text in Helvetica (one line per entry, top down), or pages that hold
 * only an image, as a scanner writes them (no text layer). Byte offsets in the cross-reference table are exact, so
 * pdf.js and poppler read the files without repairing them.
 */

/** One page: lines of text, or `{ image: true }` for a page that is only a picture. */
export type PdfPageSpec = string[] | { image: true };

function escapeText(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}

/** A PDF of text pages, each given as its lines. */
export function makeTextPdf(pages: string[][]): Uint8Array {
  return makePdf(pages);
}

/** The PDF's bytes. */
export function makePdf(pages: PdfPageSpec[]): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add("");
  const pagesObj = add("");
  const font = add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>");
  const kids: number[] = [];
  for (const page of pages) {
    let content: string;
    let resources: string;
    if (Array.isArray(page)) {
      const ops = page.map((line, i) => `BT /F1 12 Tf 72 ${720 - i * 16} Td (${escapeText(line)}) Tj ET`).join("\n");
      content = ops;
      resources = `<< /Font << /F1 ${font} 0 R >> >>`;
    } else {
      // An 8×8 grey image stretched over the page: what a scan without OCR is.
      const pixels = "80".repeat(64);
      const image = add(`<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /ASCIIHexDecode /Length ${pixels.length + 1} >>\nstream\n${pixels}>\nendstream`);
      content = "q 612 0 0 792 0 0 cm /Im1 Do Q";
      resources = `<< /XObject << /Im1 ${image} 0 R >> >>`;
    }
    const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources ${resources} /Contents ${stream} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Uint8Array.from(out, (c) => c.charCodeAt(0) & 0xff);
}
