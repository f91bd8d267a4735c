/**
 * pdf.js's page text as the project joins it, against poppler's pdftotext (the reference), on PDFs of known text.
 * The full comparison on real PDFs is `npm run --silent cli -- bench pdf`; both need pdftotext (poppler-utils).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makePdf } from "../../../src/node/pdf/make-pdf";
import { compareWithPdftotext, hasPdftotext } from "../../../src/node/bench/pdf";

const available = hasPdftotext();
if (!available) console.warn("pdftotext-agreement: skipped, pdftotext (poppler-utils) is not installed; install it with apt-get install poppler-utils.");

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "pdftotext-"));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe.skipIf(!available)("PDF text against pdftotext", () => {
  it("agrees with pdftotext on every page of a PDF of known text", async () => {
    const file = join(root, "report.pdf");
    await writeFile(file, makePdf([["Greenhouse report 2025", "Prepared by the garden team (north site)."], ["Tomato yield rose by 12 percent after drip irrigation.", "Basil did poorly; see p. 3."], ["Appendix: soil moisture readings, weekly."]]));
    const result = await compareWithPdftotext(file, 40);
    expect(result.pages).toBe(3);
    expect(result.similarity).toBe(1);
  });
});
