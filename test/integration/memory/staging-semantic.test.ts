/**
 * After review: a kept fact is indexed and recalled by meaning. Embeddings come from the generated test model in the
 * real engine host, vectors in vectra there (as the desktop plugin runs), the examples vault on disk.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { testModelPath } from "../../helpers/test-model";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { RemoteVectorStore } from "../../../src/engine/vector/remote-store";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { FolderIndexStore } from "../../../src/host/vector/folder-index-store";
import { Indexer } from "../../../src/core/memory/indexer";
import { createMemorySearch } from "../../../src/core/memory/memory-search";
import { Conversation } from "../../../src/core/agent/conversation";
import { keepStaged } from "../../../src/app/memory-review";
import { stagedMemoryTools } from "../../../src/tools/memory";
import { DEFAULT_TOOL_SETTINGS } from "../../../src/core/protocol/tool";
import { copyVault } from "../agent/scripted-helpers";
import { LocalTextStore } from "../../../src/core/memory/text-store";

const FACT = "The spare key to the garden shed hangs behind the kitchen calendar.";
let root: string;
let client: EngineClient;

beforeAll(async () => {
  root = copyVault();
  client = createNodeEngine({ model: { path: await testModelPath(), threads: 1, contextSize: 1024 } });
});
afterAll(async () => {
  await client?.shutdown().catch(() => undefined);
  rmSync(root, { recursive: true, force: true });
});

describe("a kept memory, recalled by meaning", () => {
  it("is embedded when kept and is the best semantic hit for its fact, through memory:recall too", async () => {
    const vault = new FolderVault(root, { watch: false });
    const indexDir = join(root, ".obsidian", "plugins", "vault-agent", "index");
    const vectors = new RemoteVectorStore(client, { folder: join(indexDir, "vectors") });
    const embed = (texts: string[], signal?: AbortSignal) => client.embed(texts, { signal });
    const indexer = new Indexer({ vault, indexStore: new FolderIndexStore(indexDir), text: new LocalTextStore(new FolderIndexStore(indexDir)), vectors, embed, modelKey: "test-model", batchSize: 16 });
    await indexer.build();
    const search = createMemorySearch({ indexer, vault, vectors, embed });

    const conversation = new Conversation();
    conversation.staged.stage({ content: FACT, title: "Shed key" });
    // Staged, the fact is found by meaning before it is kept: the model's own embedding of it.
    const staged = await stagedMemoryTools[1].handler({ query: FACT }, { vault, user: { confirm: async () => "deny", notify: () => undefined }, settings: DEFAULT_TOOL_SETTINGS, now: () => new Date(), memory: search, staging: conversation.staged });
    expect(staged.content.split("\n")[0]).toBe(`(staged in this conversation, not saved yet) ${FACT}`);
    expect(await search.semanticSearch!(FACT, 5)).not.toContainEqual(expect.objectContaining({ path: expect.stringMatching(/^Memory\//) }));

    const embeddedBefore = (await vectors.stats()).items;
    const kept = await keepStaged(conversation, { vault, index: async (paths) => void (await Promise.all(paths.map((p) => indexer.updateNote(p)))) });
    const path = kept.kept[0].path;
    expect((await vectors.stats()).items).toBeGreaterThan(embeddedBefore);
    const hits = await search.semanticSearch!(FACT, 3);
    expect(hits[0]).toMatchObject({ path });
    expect(hits[0].score).toBeGreaterThan(0.99);

    const recalled = await stagedMemoryTools[1].handler({ query: FACT }, { vault, user: { confirm: async () => "deny", notify: () => undefined }, settings: DEFAULT_TOOL_SETTINGS, now: () => new Date(), memory: search, staging: conversation.staged });
    expect(recalled.data).toMatchObject({ mode: "semantic" });
    expect(recalled.content).toContain(`[[${path.replace(/\.md$/, "")}]]`);
    await indexer.close();
    vault.close();
  }, 120_000);
});
