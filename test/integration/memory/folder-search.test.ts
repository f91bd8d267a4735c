/**
 * Folder-limited word search over a 10,000-note generated vault: the folder filter runs inside the
 * index query, so the one match in a small folder is found although thousands of notes elsewhere match
 * better. Full-text index only (no embeddings are needed for it), built in this process.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateVault } from "../../../src/node/vault-generator/generate-vault";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { FolderIndexStore } from "../../../src/host/vector/folder-index-store";
import { Indexer } from "../../../src/core/memory/indexer";
import { createMemorySearch } from "../../../src/core/memory/memory-search";
import { createToolCatalog } from "../../../src/tools";
import { DEFAULT_TOOL_SETTINGS, type ToolContext } from "../../../src/core/protocol/tool";
import { LocalTextStore } from "../../../src/core/memory/text-store";

let root: string;
let vault: FolderVault;
let ctx: ToolContext;
let indexer: Indexer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "folder-search-"));
  generateVault(root, { notes: 10_000, seed: 7 });
  // A small folder: two notes, one of which mentions the query word once, deep in a long note.
  await mkdir(join(root, "Side Notes"));
  const filler = Array.from({ length: 60 }, (_, i) => `Line ${i} about rivers, lakes and mountain trails.`).join("\n");
  await writeFile(join(root, "Side Notes", "Hiking.md"), `# Hiking\n${filler}\nOnce we talked about the budget.\n`);
  await writeFile(join(root, "Side Notes", "Birds.md"), "# Birds\nA heron by the river.\n");
  vault = new FolderVault(root, { watch: false });
  indexer = new Indexer({ vault, indexStore: new FolderIndexStore(join(root, ".index")), text: new LocalTextStore(new FolderIndexStore(join(root, ".index"))), vectors: null, embed: null });
  const report = await indexer.build();
  expect(report.notes).toBe(10_002);
  ctx = {
    vault,
    user: { confirm: () => Promise.resolve("approve"), notify: () => undefined },
    memory: createMemorySearch({ indexer, vault }),
    settings: { ...DEFAULT_TOOL_SETTINGS },
    now: () => new Date(2026, 10, 23, 9, 30),
  };
}, 300_000);

afterAll(async () => {
  await indexer?.close();
  vault?.close();
  await rm(root, { recursive: true, force: true });
});

async function run(name: string, args: Record<string, unknown>) {
  const tool = createToolCatalog().find((t) => t.name === name)!;
  return tool.handler(tool.args.parse(args), ctx);
}

describe("vault:search limited to a folder, over 10,000 notes", () => {
  it("finds the only match in a small folder although thousands of notes elsewhere match better", async () => {
    // The word is everywhere: far more than the few dozen hits a search without the filter looks at.
    const everywhere = await indexer.text.search("budget", 10_000);
    expect(everywhere.length).toBeGreaterThan(500);
    const rank = everywhere.findIndex((h) => h.path === "Side Notes/Hiking.md");
    expect(rank).toBeGreaterThan(30);

    const result = await run("vault:search", { query: "budget", folder: "Side Notes" });
    expect((result.data as { hits: { path: string }[] }).hits.map((h) => h.path)).toEqual(["Side Notes/Hiking.md"]);
    expect(result.content).toContain("[[Side Notes/Hiking]]");
  });

  it("says plainly when nothing in the folder matches", async () => {
    const result = await run("vault:search", { query: "budget", folder: "Side Notes/Empty" });
    expect(result.empty).toBe(true);
    const birds = await run("vault:search", { query: "heron", folder: "Side Notes" });
    expect((birds.data as { hits: { path: string }[] }).hits.map((h) => h.path)).toEqual(["Side Notes/Birds.md"]);
  });
});
