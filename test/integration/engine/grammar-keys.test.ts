/**
 * Grammars named by key on the real engine host (a child process on the generated test model): the client sends a
 * grammar's text once and afterwards only its key; a host that does not hold the key (a restarted host, or one that
 * evicted the text) makes the client send the text again. Every reply stays in the grounded grammar's language.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { GbnfRecognizer, SubsetCache } from "../../../src/core/grammar";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { VaultTagSet } from "../../../src/core/grammar/vault-tags";
import { clampTools } from "../../../src/app/clamp-schema";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import type { ClientMessage } from "../../../src/engine/client/host-protocol";
import type { ChildProcessLike } from "../../../src/engine/client/launcher";
import { nodeHostLauncher } from "../../../src/engine/client/node-launcher";
import { EngineClient as Client } from "../../../src/engine/client/engine-client";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { createToolCatalog } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { testModelPath } from "../../helpers/test-model";

const PATHS = Array.from({ length: 400 }, (_, i) => `Projects/Note ${i} plan.md`).concat(["Inbox.md", "Café/Crème.md"]);
const NOTE = { path: "Inbox.md", text: "# Inbox\nRenew car insurance.\n## Later\n- call Maya\n", headings: ["Inbox", "Later"] };

/** The grounded grammar the agent would send for these tools on this vault (the subset cache's own string). */
function groundedGrammar(): { gbnf: string; maxBytes: number } {
  const registry = new ToolRegistry(createToolCatalog());
  const cache = new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR);
  const index = new VaultPathIndex();
  index.load(PATHS);
  cache.setVaultPaths(index);
  const tags = new VaultTagSet();
  tags.set(["work", "home"]);
  cache.setVaultTags(tags);
  return cache.get(["vault:read", "vault:edit", "tags:notes"], "dynamic", { notes: [NOTE] });
}

/** A client whose every request line is recorded as the host receives it. */
function recordingClient(modelPath: string, env: Record<string, string> = {}): { engine: EngineClient; sent: ClientMessage[] } {
  const sent: ClientMessage[] = [];
  const launch = nodeHostLauncher({ env });
  const launcher = (): ChildProcessLike => {
    const child = launch();
    const stdin = child.stdin!;
    const write: (chunk: string) => boolean = stdin.write.bind(stdin);
    (stdin as { write: (chunk: string) => boolean }).write = (chunk: string) => {
      sent.push(JSON.parse(chunk) as ClientMessage);
      return write(chunk);
    };
    return child;
  };
  return { engine: new Client(launcher, { model: { path: modelPath, contextSize: 2048, threads: 1 } }), sent };
}

/** The grammar fields of the generate requests sent, in order. */
function grammarsSent(sent: ClientMessage[]): { text: boolean; key: string | undefined }[] {
  return sent
    .filter((m) => m.type === "request" && m.op === "generate")
    .map((m) => {
      const p = (m as { params: { grammar?: string; grammarKey?: string } }).params;
      return { text: typeof p.grammar === "string", key: p.grammarKey };
    });
}

let modelPath: string;
let engine: EngineClient | undefined;
beforeAll(async () => {
  modelPath = await testModelPath();
});
afterEach(async () => {
  await engine?.shutdown();
  engine = undefined;
});

describe("grammars named by key on the engine host", () => {
  it("sends a grammar's text on the first turn and only its key on the next; a restarted host gets the text again", async () => {
    const grammar = groundedGrammar();
    const recognizer = new GbnfRecognizer(grammar.gbnf);
    const rec = recordingClient(modelPath);
    engine = rec.engine;
    const turn = (seed: number) =>
      engine!.generate({ messages: [{ role: "user", content: `Call ${seed}.` }], grammar: grammar.gbnf, maxTokens: Math.min(grammar.maxBytes, 600), temperature: 1, seed });
    const replies = [await turn(1), await turn(2)];
    const firstPid = engine.hostPid;
    process.kill(firstPid!, "SIGKILL");
    await expect.poll(() => engine!.state).toBe("crashed");
    replies.push(await turn(3), await turn(4));
    expect(engine.hostPid).not.toBe(firstPid);

    const sent = grammarsSent(rec.sent);
    expect(sent).toHaveLength(4);
    expect(sent[0]).toMatchObject({ text: true });
    expect(sent[1]).toEqual({ text: false, key: sent[0].key });
    expect(sent[2]).toMatchObject({ text: true });
    expect(sent[3]).toEqual({ text: false, key: sent[2].key });
    for (const r of replies) {
      expect(r.stopReason).toBe("eos");
      expect(recognizer.accepts(r.text)).toBe(true);
    }
  });

  it("a host that no longer holds the grammar answers so, and the client sends the text again under a new key", async () => {
    const grammar = groundedGrammar();
    const other = 'root ::= "{\\"tool_calls\\":[],\\"reply\\":\\"" [a-z ]{1,40} "\\"}"';
    // A bound that holds one of the two texts: each evicts the other.
    const rec = recordingClient(modelPath, { VAULT_AGENT_GRAMMAR_TEXT_BYTES: String(grammar.gbnf.length * 2 + 100) });
    engine = rec.engine;
    const turn = (g: string, seed: number) => engine!.generate({ messages: [{ role: "user", content: `Call ${seed}.` }], grammar: g, maxTokens: 400, temperature: 1, seed });
    const a = await turn(grammar.gbnf, 1);
    await turn(other, 2);
    const b = await turn(grammar.gbnf, 3);

    const sent = grammarsSent(rec.sent);
    // The key alone, refused; then the text with a fresh key.
    expect(sent).toHaveLength(4);
    expect(sent[2]).toEqual({ text: false, key: sent[0].key });
    expect(sent[3].text).toBe(true);
    expect(sent[3].key).not.toBe(sent[0].key);
    const recognizer = new GbnfRecognizer(grammar.gbnf);
    expect(recognizer.accepts(a.text)).toBe(true);
    expect(recognizer.accepts(b.text)).toBe(true);
  });
});
