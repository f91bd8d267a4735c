/**
 * Memory through the real engine host: embeddings from the generated test model, vectors in vectra
 * inside the host (RemoteVectorStore over the client's generic request), the examples vault on disk.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cp, mkdtemp, rm, appendFile, readdir, rename } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { testModelPath } from "../../helpers/test-model";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { RemoteVectorStore } from "../../../src/engine/vector/remote-store";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { FolderIndexStore } from "../../../src/host/vector/folder-index-store";
import { Indexer } from "../../../src/core/memory/indexer";
import { createMemorySearch } from "../../../src/core/memory/memory-search";
import { chunkNote } from "../../../src/core/memory/chunker";
import { run as runIndex } from "../../../src/node/commands/index";
import { run as runSearch } from "../../../src/node/commands/search";
import { LocalTextStore } from "../../../src/core/memory/text-store";

const exampleVault = fileURLToPath(new URL("../../../examples/vault", import.meta.url));
let root: string;
let model: string;
const clients: EngineClient[] = [];

beforeAll(async () => {
  model = await testModelPath();
  root = await mkdtemp(join(tmpdir(), "engine-memory-"));
  await cp(exampleVault, root, { recursive: true });
});
afterAll(async () => {
  for (const c of clients) await c.shutdown().catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

function open(indexDir: string) {
  const client = createNodeEngine({ model: { path: model, threads: 1, contextSize: 1024 } });
  clients.push(client);
  const vault = new FolderVault(root, { watch: false });
  const vectors = new RemoteVectorStore(client, { folder: join(indexDir, "vectors") });
  const counted: string[] = [];
  const embed = async (texts: string[], signal?: AbortSignal) => {
    counted.push(...texts);
    return client.embed(texts, { signal });
  };
  const indexer = new Indexer({ vault, indexStore: new FolderIndexStore(indexDir), text: new LocalTextStore(new FolderIndexStore(indexDir)), vectors, embed, modelKey: "test-model", batchSize: 16 });
  return { client, vault, vectors, indexer, counted, search: createMemorySearch({ indexer, vault, vectors, embed }) };
}

async function chunkCount(): Promise<number> {
  const vault = new FolderVault(root, { watch: false });
  let n = 0;
  for (const f of await vault.list()) if (f.path.endsWith(".md")) n += chunkNote(f.path, await vault.read(f.path)).length;
  return n;
}

describe("memory over the engine host", () => {
  it("indexes with the test model, restarts without re-embedding, and re-embeds one edited section", async () => {
    const indexDir = join(root, ".obsidian", "plugins", "vault-agent", "index-a");
    const first = open(indexDir);
    const report = await first.indexer.build();
    const total = await chunkCount();
    expect(report.embedded).toBe(total);
    const stats = await first.vectors.stats();
    expect(stats.items).toBe(total);
    expect(stats.dimension).toBe(64);
    const hits = await first.search.semanticSearch!("red lentil soup", 5);
    expect(hits).toHaveLength(5);
    for (const h of hits) {
      expect(h.text.length).toBeGreaterThan(0);
      expect(await first.vault.read(h.path)).toContain(h.text.split("\n")[0]);
    }
    await first.indexer.close();
    // Shutting the host down must leave a complete index file behind (written on exit).
    await first.client.shutdown();
    expect(await readdir(join(indexDir, "vectors"))).toEqual(["index.vec"]);

    const second = open(indexDir);
    const again = await second.indexer.build();
    expect(again.embedded).toBe(0);
    expect(second.counted).toEqual([]);
    await appendFile(join(root, "Recipes/Banana Bread.md"), "\nAdd walnuts if Priya is not coming.\n");
    const update = await second.indexer.updateNote("Recipes/Banana Bread.md");
    expect(update.embedded).toBe(1);
    expect(second.counted[0]).toContain("walnuts");
    expect((await second.vectors.stats()).items).toBe(await chunkCount());
    // A folder renamed (one rename event per note): the host relabels the vectors, nothing is embedded.
    const people = (await second.vault.list("People")).map((f) => f.path);
    await rename(join(root, "People"), join(root, "Contacts"));
    const before = second.counted.length;
    const moved = await second.indexer.apply(people.map((p) => ({ kind: "rename" as const, oldPath: p, path: p.replace(/^People\//, "Contacts/") })));
    expect(moved.embedded).toBe(0);
    expect(moved.relabeled).toBeGreaterThanOrEqual(people.length);
    expect(second.counted.length).toBe(before);
    const contacts = await second.search.semanticSearch!("Priya", 3, { pathPrefix: "Contacts/" });
    expect(contacts.length).toBeGreaterThan(0);
    for (const h of contacts) expect(h.path.startsWith("Contacts/")).toBe(true);
    await rename(join(root, "Contacts"), join(root, "People"));
    await second.indexer.close();
  });

  it("the index and search commands work end to end", async () => {
    const indexDir = join(root, "cli-index");
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = (chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    };
    try {
      expect(await runIndex(["--vault", root, "--embed-model", model, "--index-dir", indexDir, "--threads", "1", "--json"])).toBe(0);
      expect(await runSearch(["--vault", root, "--index-dir", indexDir, "--json", "shakshuka"])).toBe(0);
      expect(await runSearch(["--vault", root, "--index-dir", indexDir, "--semantic", "--embed-model", model, "--threads", "1", "--limit", "3", "--json", "tomato sauce"])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const lines = out.join("").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ semantic: true, embedded: await chunkCount(), cancelled: false });
    expect(lines[1]).toMatchObject({ path: "Recipes/Shakshuka.md" });
    const semantic = lines.slice(-3);
    expect(semantic).toHaveLength(3);
    for (const s of semantic) expect(typeof s.heading).toBe("string");
  });
});
