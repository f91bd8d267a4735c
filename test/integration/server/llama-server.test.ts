/**
 * The llama.cpp server engine against a real llama-server on 127.0.0.1 running the generated test model, through
 * the real client (EngineClient → engine host → HTTP). One shared server for most tests; the crash test kills and
 * restarts its own.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Conversation } from "../../../src/core/agent/conversation";
import type { AgentEvent } from "../../../src/core/agent/events";
import { parseEnvelope } from "../../../src/core/agent/envelope-parse";
import { Indexer, createMemorySearch } from "../../../src/core/memory";
import { EngineError, type Engine } from "../../../src/core/ports/engine";
import type { IndexStore } from "../../../src/core/ports/index-store";
import { SubsetCache } from "../../../src/core/grammar";
import { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine, nodeHostLauncher } from "../../../src/engine/client/node-launcher";
import { RemoteVectorStore } from "../../../src/engine/vector/remote-store";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR, composeHeadless } from "../../../src/node/compose";
import { clampTools } from "../../../src/app/clamp-schema";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { createToolCatalog } from "../../../src/tools/index";
import { ToolRegistry } from "../../../src/tools/registry";
import { requireLlamaServer, freePort, startLlamaServer, type RunningServer } from "../../helpers/llama-server";
import { testModelPath } from "../../helpers/test-model";
import { copyVault } from "../agent/scripted-helpers";
import { buildHostBundle } from "../../helpers/host-bundle";
import { LocalTextStore } from "../../../src/core/memory/text-store";

const bin = requireLlamaServer("the llama.cpp server engine tests");
const API_KEY = "test-key-7f3a";
const cli = fileURLToPath(new URL("../../../src/node/cli.ts", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

function cliRun(args: string[]) {
  return spawnSync(process.execPath, ["--import", tsx, cli, ...args], { encoding: "utf8", timeout: 240_000 });
}

/** The envelope grammars of the test model over the real catalog (the same caps `ask` uses on it). */
function testGrammars(): { grammars: SubsetCache; names: string[] } {
  const registry = new ToolRegistry(createToolCatalog({ semantic: false, network: false }));
  return { grammars: new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR), names: registry.names() };
}

/** An engine that says the context is bigger than the server's: what a server restarted with a smaller --ctx-size does. */
function overstatingContext(inner: Engine): Engine {
  return {
    generate: (r) => inner.generate(r),
    embed: (t, o) => inner.embed(t, o),
    countTokens: (t) => inner.countTokens(t),
    modelInfo: async () => ({ ...(await inner.modelInfo()), contextSize: 16384 }),
  };
}

describe.skipIf(!bin)("llama.cpp server engine (real llama-server)", () => {
  let server: RunningServer;
  let model: string;
  let client: EngineClient;
  const config = () => ({ kind: "llama-server" as const, url: server.url, apiKey: API_KEY });

  beforeAll(async () => {
    model = await testModelPath();
    server = await startLlamaServer(bin!, model, ["-c", "4096", "-np", "2", "--embeddings", "--pooling", "mean", "--api-key", API_KEY]);
    client = createNodeEngine({ server: config() });
  });

  afterAll(async () => {
    await client?.shutdown();
    await server?.stop();
  });

  it("Test connection reports the model, the context size per slot, the grammar and embeddings, each tried for real", async () => {
    const probe = await client.probeServer(config());
    expect(probe.model).toMatch(/^test-model-v8192-s1-.*\.gguf$/);
    expect(probe.contextSize).toBe(2048);
    expect(probe.slots).toBe(2);
    expect(probe.grammar).toBe(true);
    expect(probe.constraint).toBe("gbnf");
    expect(probe.embeddings).toBe(true);
    const info = await client.modelInfo();
    expect(info.contextSize).toBe(2048);
    expect(info.server).toBe(`the llama.cpp server at ${server.url}`);
  });

  it("≥ 200 samples at temperature 1 under the envelope GBNF are all valid envelopes offering only the routed tools", async () => {
    const { grammars, names } = testGrammars();
    const subsets = [["vault:read"], ["vault:search", "vault:list"], names.slice(0, 6), []];
    let valid = 0;
    let calls = 0;
    const failures: string[] = [];
    const N = 200;
    // Two at a time: the server has two slots.
    for (let i = 0; i < N; i += 2) {
      await Promise.all(
        [i, i + 1].map(async (k) => {
          const subset = subsets[k % subsets.length];
          const grammar = grammars.get(subset, "dynamic");
          const r = await client.generate({
            messages: [{ role: "user", content: `sample ${k}: do something with my notes` }],
            grammar: grammar.gbnf,
            maxTokens: Math.ceil(grammar.maxBytes),
            temperature: 1,
            seed: k + 1,
          });
          expect(r.constraint).toBe("gbnf");
          const parsed = parseEnvelope(r.text);
          if (parsed.ok && parsed.envelope.tool_calls.every((c) => subset.includes(c.name))) {
            valid++;
            calls += parsed.envelope.tool_calls.length;
          } else failures.push(r.text);
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(valid).toBe(N);
    // Random weights under the grammar do call tools (most subsets offer some).
    expect(calls).toBeGreaterThan(0);
  });

  it("streams text deltas before the reply completes, and the deltas add up to the reply", async () => {
    const seen: { text: string; at: number }[] = [];
    await client.modelInfo(); // connected before timing: the host and the server's model info are ready
    const started = performance.now();
    const r = await client.generate({
      messages: [{ role: "user", content: "Write a long note." }],
      // At least 1500 characters (a few hundred tokens): long enough that arrival times tell streaming from one block.
      grammar: "root ::= [a-z ]{1500,1999}",
      maxTokens: 1200,
      onText: (text) => seen.push({ text, at: performance.now() }),
    });
    const ended = performance.now();
    expect(seen.length).toBeGreaterThan(100);
    // Deltas arrive over time, in many separate reads, not all at once.
    expect(new Set(seen.map((s) => Math.round(s.at))).size).toBeGreaterThan(10);
    expect(seen.map((s) => s.text).join("")).toBe(r.text);
    // The first delta arrived well before the end: streaming, not one block at the end.
    expect(seen[0].at - started).toBeLessThan((ended - started) * 0.5);
    expect(r.tokensOut).toBeGreaterThan(300);
    expect(r.text.length).toBeGreaterThanOrEqual(1500);
  });

  it("an abort closes the request: it settles quickly with stopReason abort, and the next request works", async () => {
    const latencies: number[] = [];
    for (let run = 0; run < 3; run++) {
      const controller = new AbortController();
      let chunks = 0;
      let abortedAt = 0;
      const r = await client.generate({
        messages: [{ role: "user", content: "Go on." }],
        grammar: "root ::= [a-z ]{1500,1999}",
        maxTokens: 1900,
        seed: run,
        conversationId: "abort-test",
        signal: controller.signal,
        onText: () => {
          if (++chunks === 10) {
            abortedAt = performance.now();
            controller.abort();
          }
        },
      });
      latencies.push(performance.now() - abortedAt);
      expect(r.stopReason).toBe("abort");
    }
    console.info(`[llama-server abort] settle latency ms: ${latencies.map((l) => l.toFixed(1)).join(", ")}`);
    // How fast it settles is `bench engine`'s abort figure; here it must settle as an abort and leave the server usable.
    const next = await client.generate({ messages: [{ role: "user", content: "hi" }], grammar: 'root ::= "ok"', maxTokens: 4, conversationId: "abort-test" });
    expect(next.text).toBe("ok");
  });

  it("a conversation keeps its slot: the second turn reuses the cached prompt prefix", async () => {
    const system = { role: "system" as const, content: "You are a careful assistant for an Obsidian vault of notes. ".repeat(30) };
    const first = await client.generate({ messages: [system, { role: "user", content: "List my notes." }], grammar: 'root ::= "fine"', maxTokens: 4, conversationId: "prefix" });
    const second = await client.generate({
      messages: [system, { role: "user", content: "List my notes." }, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }],
      grammar: 'root ::= "fine"',
      maxTokens: 4,
      conversationId: "prefix",
    });
    expect(first.tokensEvaluated).toBeGreaterThan(300);
    expect(second.tokensIn).toBeGreaterThan(first.tokensIn);
    expect(second.tokensEvaluated).toBeLessThan(40);
  });

  it("counts tokens through /tokenize", async () => {
    const n = await client.countTokens("Shopping list: oat milk, apples and bread.");
    expect(n).toBeGreaterThan(3);
    expect(n).toBeLessThan(40);
  });

  it("ask --engine llama-server runs an agent turn over the server and says which constraint it ran under", () => {
    const vault = copyVault();
    const transcript = join(mkdtempSync(join(tmpdir(), "ask-server-")), "turn.jsonl");
    const r = cliRun(["ask", "--vault", vault, "--engine", "llama-server", "--url", server.url, "--api-key", API_KEY, "--transcript", transcript, "--seed", "3", "read my Inbox note"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`[engine] the llama.cpp server at ${server.url}`);
    expect(r.stdout).toMatch(/\[end\] (done|round-cap) after \d+ round\(s\).*constrained by GBNF grammar/);
    expect(r.stdout + r.stderr).not.toContain(API_KEY);
    const events = readFileSync(transcript, "utf8").trim().split("\n").map((l) => JSON.parse(l) as AgentEvent);
    expect(events.filter((e) => e.type === "error" && e.code === "bad_envelope")).toEqual([]);
    const end = events.at(-1)!;
    expect(end.type === "turn-end" && end.constraint).toBe("gbnf");
  });

  it("full agent turns with tool calls: every call reaches the gatekeeper and a result comes back", async () => {
    const headless = await composeHeadless({ vault: copyVault(), server: config() });
    try {
      expect(headless.testModel).toBe(true);
      const results: AgentEvent[] = [];
      const messages = ["read my Inbox note", "search my notes for garden", "list the notes in Projects", "what tags do I use", "find my notes about the garden", "read the note Home"];
      // Random weights may answer several turns without a call (the grammar allows an empty tool_calls), so the
      // six requests are repeated, up to three passes, until some call has come back.
      for (let pass = 0; pass < 3 && (pass === 0 || results.length === 0); pass++) {
        for (const [i, message] of messages.entries()) {
          let stopped: AgentEvent | undefined;
          const r = await headless.agent.runTurn(message, {
            onEvent: (e) => {
              if (e.type === "tool-result") results.push(e);
              if (e.type === "error" && !e.recoverable) stopped = e;
            },
          });
          // Random weights may also run the agent's own bounded recovery out (a repeated or fruitless call, attempts
          // spent): the turn then ends in one sentence. The server and the envelope must never be the reason.
          const ownStop = r.outcome === "failed" && stopped?.type === "error" && ["recovery_exhausted", "repeated_call", "no_progress"].includes(stopped.code);
          expect(ownStop || ["done", "round-cap"].includes(r.outcome), `pass ${pass}, turn ${i}: ${r.outcome} ${JSON.stringify(stopped)}`).toBe(true);
          expect(r.constraint).toBe("gbnf");
        }
      }
      expect(results.length).toBeGreaterThan(0);
    } finally {
      await headless.close();
    }
  });

  it("embeddings from the server feed the vector index: a chunk's own text finds its note first", async () => {
    const vaultDir = copyVault();
    const indexDir = mkdtempSync(join(tmpdir(), "server-vectors-"));
    const vault = new FolderVault(vaultDir, { watch: false });
    const saved = new Map<string, string>();
    const indexStore: IndexStore = { load: async (k) => saved.get(k) ?? null, save: async (k, t) => void saved.set(k, t), remove: async (k) => void saved.delete(k) };
    const vectors = new RemoteVectorStore(client, { folder: indexDir });
    const embed = (texts: string[], signal?: AbortSignal) => client.embed(texts, { signal });
    const indexer = new Indexer({ vault, indexStore, text: new LocalTextStore(indexStore), vectors, embed, modelKey: "server-test-model" });
    try {
      const report = await indexer.build();
      expect(report.embedded).toBeGreaterThan(5);
      const stats = (await client.request("vector.stats", { folder: indexDir })) as { items: number; dimension?: number };
      expect(stats.items).toBe(report.embedded);
      expect(stats.dimension).toBe(64);
      const search = createMemorySearch({ indexer, vault, vectors, embed });
      const inbox = await vault.read("Inbox.md");
      const hits = await search.semanticSearch!(inbox.slice(0, 400), 3);
      expect(hits[0]?.path).toBe("Inbox.md");
    } finally {
      await indexer.close();
      await client.request("vector.close", { folder: indexDir });
      rmSync(indexDir, { recursive: true, force: true });
    }
  });

  describe("bad input: one sentence naming the server and what to do", () => {
    it("a wrong URL (nothing listening): the CLI exits 1 with one sentence", async () => {
      const port = await freePort();
      const r = cliRun(["ask", "--vault", copyVault(), "--engine", "llama-server", "--url", `http://127.0.0.1:${port}`, "hello"]);
      expect(r.status).toBe(1);
      const lines = r.stderr.trim().split("\n");
      expect(lines.at(-1)).toBe(
        `The llama.cpp server at http://127.0.0.1:${port} cannot be reached (connection refused); check the URL in the settings and that the server is running.`,
      );
    });

    it("a URL that is not the server's root: 404 names the endpoint", async () => {
      const bad = createNodeEngine({ server: { ...config(), url: `${server.url}/nothing/here` } });
      try {
        await expect(bad.modelInfo()).rejects.toMatchObject({ code: "server_not_found", message: expect.stringMatching(/^The llama\.cpp server at .*\/nothing\/here has no \/health endpoint \(404\); check that the URL/) });
      } finally {
        await bad.shutdown();
      }
    });

    it("401: a wrong key and a missing key each say what to fix, and never echo the key", async () => {
      for (const [apiKey, pattern] of [
        ["wrong-key-123", /refused the API key \(401: Invalid API Key\); check the API key in the settings\.$/],
        [undefined, /needs an API key \(401: Invalid API Key\); enter it in the settings\.$/],
      ] as const) {
        const bad = createNodeEngine({ server: { kind: "llama-server", url: server.url, ...(apiKey ? { apiKey } : {}) } });
        try {
          const err = (await bad.modelInfo().catch((e: unknown) => e)) as EngineError;
          expect(err).toBeInstanceOf(EngineError);
          expect(err.code).toBe("server_auth");
          expect(err.message).toMatch(pattern);
          expect(err.message.startsWith(`The llama.cpp server at ${server.url}`)).toBe(true);
          if (apiKey) expect(err.message).not.toContain(apiKey);
        } finally {
          await bad.shutdown();
        }
      }
    });

    it("404 model: a model name the server does not serve", async () => {
      const bad = createNodeEngine({ server: { ...config(), model: "no-such-model" } });
      try {
        await expect(bad.modelInfo()).rejects.toMatchObject({
          code: "server_not_found",
          message: expect.stringMatching(/^The llama\.cpp server at .* has no model "no-such-model" \(it serves "test-model-.*\.gguf"\); set a model name it serves in the settings\.$/),
        });
      } finally {
        await bad.shutdown();
      }
    });

    it("a grammar the server rejects: bad_grammar naming the server; the turn ends cleanly and the next works", async () => {
      const err = (await client.generate({ messages: [{ role: "user", content: "hi" }], grammar: "root ::= missing-rule", maxTokens: 8 }).catch((e: unknown) => e)) as EngineError;
      expect(err.code).toBe("bad_grammar");
      expect(err.message).toMatch(new RegExp(`^The llama\\.cpp server at ${server.url.replace(/\./g, "\\.")} rejected the grammar \\(.+\\); `));
      const ok = await client.generate({ messages: [{ role: "user", content: "hi" }], grammar: 'root ::= "yes"', maxTokens: 4 });
      expect(ok.text).toBe("yes");
    });

    it("a context overflow the server reports: context_full with the server's numbers; history stays consistent; the next turn works", async () => {
      const headless = await composeHeadless({ vault: copyVault(), engine: overstatingContext(client), memory: false, grammarOptions: TEST_MODEL_GRAMMAR, clamp: TEST_MODEL_CLAMP });
      try {
        const events: AgentEvent[] = [];
        const huge = "Please remember this sentence about the garden and the tomatoes. ".repeat(300);
        const r = await headless.agent.runTurn(huge, { onEvent: (e) => events.push(e) });
        expect(r.outcome).toBe("failed");
        const error = events.find((e) => e.type === "error" && !e.recoverable);
        expect(error).toMatchObject({ code: "context_full" });
        expect(error?.type === "error" && error.message).toMatch(
          /^The llama\.cpp server at .* reports that the conversation does not fit its context \(.*2048.*\); start a new conversation, or restart the server with a larger context \(--ctx-size\)\.$/,
        );
        const entries = headless.agent.conversation.entries;
        expect(entries.at(-1)).toMatchObject({ kind: "assistant", placeholder: "failed" });
      } finally {
        await headless.close();
      }
      // The same host and server take the next turn (budgeted with the context the server really has).
      const next = await composeHeadless({ vault: copyVault(), engine: client, memory: false, grammarOptions: TEST_MODEL_GRAMMAR, clamp: TEST_MODEL_CLAMP });
      try {
        next.agent.conversation = new Conversation();
        const r = await next.agent.runTurn("read my Inbox note", { onEvent: () => undefined });
        expect(["done", "round-cap"]).toContain(r.outcome);
      } finally {
        await next.close();
      }
    });

    it("an OpenAI-compatible engine on a server that refuses the JSON Schema runs prompt only, says so, and ends the turn cleanly", async () => {
      const openai = createNodeEngine({ server: { kind: "openai", url: `${server.url}/v1`, apiKey: API_KEY } });
      try {
        const probe = await openai.probeServer({ kind: "openai", url: `${server.url}/v1`, apiKey: API_KEY });
        expect(probe.constraint).toBe("none");
        expect(probe.note).toContain("Failed to initialize samplers");
        const headless = await composeHeadless({ vault: copyVault(), engine: openai, memory: false, grammarOptions: TEST_MODEL_GRAMMAR, clamp: TEST_MODEL_CLAMP, agentOptions: { recoveryAttempts: 1 } });
        const events: AgentEvent[] = [];
        const r = await headless.agent.runTurn("read my Inbox note", { onEvent: (e) => events.push(e) });
        expect(r.constraint).toBe("none");
        // Random weights without a constraint do not write the envelope: the turn fails with a sentence saying why.
        expect(r.outcome).toBe("failed");
        const error = events.find((e) => e.type === "error" && !e.recoverable);
        expect(error?.type === "error" && error.message).toMatch(/^The model did not produce a valid reply: .* did not accept a JSON Schema \(400: Failed to initialize samplers: std::exception\), so replies are not constrained \(prompt only\); use a llama\.cpp server/);
        expect(headless.agent.conversation.entries.at(-1)).toMatchObject({ kind: "assistant", placeholder: "failed" });
      } finally {
        await openai.shutdown();
      }
    });
  });

  it("the bundled engine host starts and serves a server engine where node-llama-cpp is not installed", async () => {
    const source = await buildHostBundle();
    // A folder with no node_modules anywhere above it: the runtime cannot be found from there.
    const dir = mkdtempSync(join(tmpdir(), "host-no-runtime-"));
    const script = join(dir, "engine-host.mjs");
    writeFileSync(script, source);
    const bare = new EngineClient(nodeHostLauncher({ hostScript: script }), { server: config() });
    try {
      const r = await bare.generate({ messages: [{ role: "user", content: "hi" }], grammar: 'root ::= "served"', maxTokens: 16 });
      expect(r.text).toBe("served");
      // The built-in engine says what is missing instead of crashing the host.
      const local = await bare.loadModel({ model: { path: model } }).catch((e: unknown) => e);
      expect(local).toMatchObject({ code: "runtime_missing", message: expect.stringContaining("node-llama-cpp") });
      expect(bare.state).not.toBe("crashed");
    } finally {
      await bare.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!bin)("llama.cpp server killed mid-turn, then restarted", () => {
  let server: RunningServer;
  let model: string;

  beforeAll(async () => {
    model = await testModelPath();
    server = await startLlamaServer(bin!, model, ["-c", "2048", "-np", "1"]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("the turn ends with one sentence, history stays consistent, turns fail clearly while it is down, and work once it is back", async () => {
    const vaultDir = copyVault();
    const headless = await composeHeadless({
      vault: vaultDir,
      server: { kind: "llama-server", url: server.url },
      // Long strings keep the reply going long enough to be cut.
      grammarOptions: { ...TEST_MODEL_GRAMMAR, maxThoughtChars: 600, maxMessageChars: 600 },
    });
    try {
      const events: AgentEvent[] = [];
      const kill = { started: false, done: Promise.resolve() };
      const r = await headless.agent.runTurn("tell me about my garden", {
        onEvent: (e) => {
          events.push(e);
          if (!kill.started && (e.type === "thought-delta" || e.type === "message-delta")) {
            kill.started = true;
            kill.done = server.kill();
          }
        },
      });
      await kill.done;
      expect(kill.started).toBe(true);
      expect(r.outcome).toBe("failed");
      const error = events.find((e) => e.type === "error" && !e.recoverable);
      expect(error?.type === "error" && error.message).toMatch(
        /^The llama\.cpp server at http:\/\/127\.0\.0\.1:\d+ closed the connection in the middle of a reply \(.+\); check that the server is still running, then send the message again\.$/,
      );
      const entries = headless.agent.conversation.entries;
      expect(entries.map((e) => e.kind)).toEqual(["user", "assistant"]);
      expect(entries[1]).toMatchObject({ placeholder: "failed" });

      const downEvents: AgentEvent[] = [];
      const down = await headless.agent.runTurn("hello again", { onEvent: (e) => downEvents.push(e) });
      expect(down.outcome).toBe("failed");
      expect(downEvents.find((e) => e.type === "error")).toMatchObject({ message: expect.stringMatching(/cannot be reached \(connection refused\); check the URL/) });
      expect(headless.agent.conversation.entries.map((e) => e.kind)).toEqual(["user", "assistant", "user", "assistant"]);

      server = await startLlamaServer(bin!, model, ["-c", "2048", "-np", "1"], server.port);
      const back = await headless.agent.runTurn("read my Inbox note");
      expect(["done", "round-cap"]).toContain(back.outcome);
    } finally {
      await headless.close();
      rmSync(vaultDir, { recursive: true, force: true });
    }
  });
});
