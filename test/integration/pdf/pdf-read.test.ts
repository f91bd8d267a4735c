/** pdf:read over real PDF files in a real folder vault, read with the real pdf.js (pdfjs-dist), as the CLI reads them. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { nodePdfText } from "../../../src/node/pdf/node-pdf-text";
import { makePdf } from "../../../src/node/pdf/make-pdf";
import { pdfTools } from "../../../src/tools/pdf";
import { DEFAULT_TOOL_SETTINGS, type ToolContext } from "../../../src/core/protocol/tool";
import { ToolError } from "../../../src/tools/tool-error";

let root: string;
let ctx: ToolContext;
const read = pdfTools.find((t) => t.name === "pdf:read")!;
const call = (args: Record<string, unknown>) => read.handler(read.args.parse(args), ctx);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "pdf-read-"));
  await mkdir(join(root, "Papers"));
  const pages = Array.from({ length: 6 }, (_, i) => [`Page ${i + 1} heading`, `Finding number ${i + 1}: yields rose after drip irrigation.`]);
  await writeFile(join(root, "Papers", "Report.pdf"), makePdf(pages));
  await writeFile(join(root, "Papers", "Scan.pdf"), makePdf([{ image: true }, { image: true }, { image: true }]));
  await writeFile(join(root, "Papers", "Broken.pdf"), "this is not a PDF at all");
  await writeFile(join(root, "Note.md"), "# Note\n");
  ctx = {
    vault: new FolderVault(root, { watch: false }),
    user: { confirm: () => Promise.resolve("approve"), notify: () => undefined },
    settings: { ...DEFAULT_TOOL_SETTINGS },
    now: () => new Date(),
    pdf: nodePdfText(),
  };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function refusal(args: Record<string, unknown>): Promise<ToolError> {
  try {
    await call(args);
  } catch (err) {
    expect(err).toBeInstanceOf(ToolError);
    return err as ToolError;
  }
  throw new Error("expected pdf:read to refuse");
}

describe("pdf:read", () => {
  it("reads every page with its page link, the page's text in the order it was written", async () => {
    const result = await call({ path: "Papers/Report.pdf" });
    expect(result.content.split("\n")[0]).toBe("Papers/Report.pdf, pages 1–6 of 6");
    expect(result.content).toContain("[[Papers/Report.pdf#page=3]]\nPage 3 heading\nFinding number 3: yields rose after drip irrigation.");
    expect((result.data as { texts: string[] }).texts).toHaveLength(6);
  });

  it("reads only the asked pages: one, a range, and a list with a range", async () => {
    expect((await call({ path: "Papers/Report.pdf", pages: "4" })).content).toBe("Papers/Report.pdf, page 4 of 6\n\n[[Papers/Report.pdf#page=4]]\nPage 4 heading\nFinding number 4: yields rose after drip irrigation.");
    expect((await call({ path: "Papers/Report", pages: "2-3" })).data).toMatchObject({ pages: [2, 3] });
    expect((await call({ path: "Papers/Report.pdf", pages: "1,5-6" })).data).toMatchObject({ pages: [1, 5, 6] });
  });

  it("gives long PDFs a few pages at a time and says which pages to read next", async () => {
    ctx.settings = { ...DEFAULT_TOOL_SETTINGS, readPageChars: 150 };
    try {
      const result = await call({ path: "Papers/Report.pdf" });
      expect((result.data as { pages: number[] }).pages).toEqual([1, 2]);
      expect(result.content).toMatch(/more follows: read again with pages="3-/);
    } finally {
      ctx.settings = { ...DEFAULT_TOOL_SETTINGS };
    }
  });

  it("says in one sentence that a scanned PDF has no text layer", async () => {
    const result = await call({ path: "Papers/Scan.pdf", pages: "2" });
    expect(result.content).toBe('"Papers/Scan.pdf" has no text layer (it is a scanned image), so its text cannot be read; text recognition (OCR) is not supported.');
    expect(result.empty).toBe(true);
  });

  it("refuses a page past the end, a note, a missing file and a file that is not a PDF, each in a sentence", async () => {
    expect((await refusal({ path: "Papers/Report.pdf", pages: "9" })).message).toBe('"Papers/Report.pdf" has 6 pages, so it has no page 9.');
    expect((await refusal({ path: "Note.md" })).message).toBe('"Note.md" is not a PDF; read notes with vault:read.');
    expect((await refusal({ path: "Papers/Missing.pdf" })).code).toBe("not_found");
    expect((await refusal({ path: "Papers/Broken.pdf" })).message).toMatch(/could not be read as a PDF/);
  });
});
