/** `index` and `search` on the command line find text inside a canvas and inside a PDF's page, and name the page. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run as runIndex } from "../../../src/node/commands/index";
import { run as runSearch } from "../../../src/node/commands/search";
import { makePdf } from "../../../src/node/pdf/make-pdf";

let root: string;

/** Runs a command with stdout and stderr captured. */
async function captured(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  process.stderr.write = () => true;
  try {
    return { code: await fn(), out: out.join("") };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cli-pdf-canvas-"));
  await mkdir(join(root, "Papers"));
  await writeFile(join(root, "Papers", "Greenhouse report.pdf"), makePdf([["Greenhouse report 2025"], ["Tomato yield rose by twelve percent after drip irrigation."]]));
  await writeFile(join(root, "Board.canvas"), JSON.stringify({ nodes: [{ id: "a1", type: "text", text: "Compost rotation schedule", x: 0, y: 0, width: 240, height: 80 }], edges: [] }));
  await writeFile(join(root, "Note.md"), "# Note\n\nNothing about irrigation here, only bees.\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("index and search over canvases and PDFs", () => {
  it("indexes the canvas and the PDF with the notes", async () => {
    const { code } = await captured(() => runIndex(["--vault", root, "--index-dir", join(root, ".idx")]));
    expect(code).toBe(0);
  });

  it("finds text on a PDF's page and names the page", async () => {
    const { code, out } = await captured(() => runSearch(["--vault", root, "--index-dir", join(root, ".idx"), "--json", "drip irrigation"]));
    expect(code).toBe(0);
    const first = JSON.parse(out.trim().split("\n")[0]) as { path: string; text: string };
    expect(first).toMatchObject({ path: "Papers/Greenhouse report.pdf#page=2", text: "Tomato yield rose by twelve percent after drip irrigation." });
  });

  it("finds text inside a canvas", async () => {
    const { out } = await captured(() => runSearch(["--vault", root, "--index-dir", join(root, ".idx"), "--json", "compost rotation"]));
    expect((JSON.parse(out.trim().split("\n")[0]) as { path: string }).path).toBe("Board.canvas");
  });
});
