/**
 * PDFs and canvases in the memory index, with real parts: PDF files read by pdf.js (pdfjs-dist) from a real folder
 * vault, the minisearch full-text index, and the search the tools and the CLI use. A PDF's hit names its page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { FolderIndexStore } from "../../../src/host/vector/folder-index-store";
import { nodePdfText } from "../../../src/node/pdf/node-pdf-text";
import { makePdf } from "../../../src/node/pdf/make-pdf";
import { Indexer } from "../../../src/core/memory/indexer";
import { createMemorySearch } from "../../../src/core/memory/memory-search";
import { LocalTextStore } from "../../../src/core/memory/text-store";
import { SourceTexts } from "../../../src/core/memory/source-text";
import { prefetchMemories } from "../../../src/core/memory/prefetch";
import type { MemorySearch } from "../../../src/core/protocol/tool";

let root: string;
let vault: FolderVault;
let indexer: Indexer;
let search: MemorySearch;

const CANVAS = {
  nodes: [
    { id: "a1", type: "text", text: "Compost rotation schedule", x: 0, y: 0, width: 240, height: 80 },
    { id: "b2", type: "file", file: "Notes/Beds.md", x: 320, y: 0, width: 240, height: 80 },
    { id: "g1", type: "group", label: "Spring planning", x: -20, y: -40, width: 620, height: 160 },
  ],
  edges: [{ id: "e1", fromNode: "a1", toNode: "b2", label: "feeds the beds" }],
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "pdf-canvas-index-"));
  await mkdir(join(root, "Papers"));
  await mkdir(join(root, "Notes"));
  await writeFile(join(root, "Papers", "Greenhouse report.pdf"), makePdf([["Greenhouse report 2025", "Prepared by the garden team."], ["Tomato yield rose by twelve percent after drip irrigation."], ["Appendix: soil moisture readings from the north bed."]]));
  await writeFile(join(root, "Papers", "Scan.pdf"), makePdf([{ image: true }]));
  await writeFile(join(root, "Board.canvas"), JSON.stringify(CANVAS));
  await writeFile(join(root, "Notes", "Beds.md"), "# Beds\n\nThe north bed gets morning sun.\n");
  vault = new FolderVault(root, { watch: false });
  const store = new FolderIndexStore(join(root, ".index"));
  indexer = new Indexer({ vault, sources: new SourceTexts(vault, nodePdfText()), indexStore: store, text: new LocalTextStore(store), vectors: null, embed: null });
  await indexer.build();
  search = createMemorySearch({ indexer, vault });
});

afterAll(async () => {
  vault.close();
  await rm(root, { recursive: true, force: true });
});

describe("PDFs and canvases in the memory index", () => {
  it("indexes notes, canvases and PDFs, a scanned PDF too (it has no words to find)", () => {
    expect(indexer.paths().sort()).toEqual(["Board.canvas", "Notes/Beds.md", "Papers/Greenhouse report.pdf", "Papers/Scan.pdf"]);
  });

  it("finds text on a PDF's page, and the hit names the page with a line of it", async () => {
    const [hit] = await search.textSearch("drip irrigation", 5);
    expect(hit.path).toBe("Papers/Greenhouse report.pdf#page=2");
    expect(hit.snippet).toBe("Tomato yield rose by twelve percent after drip irrigation.");
    const [appendix] = await search.textSearch("soil moisture readings", 5);
    expect(appendix.path).toBe("Papers/Greenhouse report.pdf#page=3");
  });

  it("keeps a PDF's pages through the next build, which reads nothing unchanged", async () => {
    const report = await indexer.build();
    expect(report.read).toBe(0);
    expect((await search.textSearch("drip irrigation", 5))[0].path).toBe("Papers/Greenhouse report.pdf#page=2");
  });

  it("finds a canvas by its cards' text, its group labels and its connections' labels", async () => {
    expect((await search.textSearch("compost rotation", 5))[0].path).toBe("Board.canvas");
    expect((await search.textSearch("spring planning", 5))[0].path).toBe("Board.canvas");
    expect((await search.textSearch("feeds the beds", 5)).map((h) => h.path)).toContain("Board.canvas");
  });

  it("cites a PDF's page in the memories a turn starts with", async () => {
    const memories = await prefetchMemories(search, "what happened after drip irrigation", { tokenBudget: 400 });
    expect(memories.text).toContain("[[Papers/Greenhouse report.pdf#page=2]]: Tomato yield rose");
  });

  it("follows a PDF that lost pages: text only on the dropped page is no longer found", async () => {
    await writeFile(join(root, "Papers", "Greenhouse report.pdf"), makePdf([["Greenhouse report 2025"], ["Tomato yield rose by twelve percent after drip irrigation."]]));
    await indexer.apply([{ kind: "modify", path: "Papers/Greenhouse report.pdf" }]);
    expect((await search.textSearch("appendix moisture readings", 5)).map((h) => h.path)).not.toContain("Papers/Greenhouse report.pdf#page=3");
    expect((await search.textSearch("drip irrigation", 5))[0].path).toBe("Papers/Greenhouse report.pdf#page=2");
  });

  it("forgets every page of a deleted PDF", async () => {
    await rm(join(root, "Papers", "Greenhouse report.pdf"));
    await indexer.apply([{ kind: "delete", path: "Papers/Greenhouse report.pdf" }]);
    expect(await search.textSearch("drip irrigation", 5)).toEqual([]);
    expect(indexer.text.paths().filter((p) => p.startsWith("Papers/Greenhouse"))).toEqual([]);
  });
});
