/**
 * llama-server's saved slots for "llama.cpp on this computer", against the real llama-server: the managed server
 * starts with a slot-save folder, a conversation's slot is saved once its turn has been idle, and after the server
 * is killed and started again the conversation's next request evaluates only its new tokens (llama-server's own
 * timings). A state saved for another model or context is refused and the request evaluates the whole prompt.
 * The folder's bound is checked on the host's store with plain files.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatMessage, GenerateResult } from "../../../src/core/ports/engine";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { ManagedLlamaEngine } from "../../../src/engine/server/managed-llama-engine";
import { ManagedLlamaServer } from "../../../src/engine/server/managed-llama-server";
import { serverSlotStates } from "../../../src/host/server-slot-states";
import { requireLlamaServer } from "../../helpers/llama-server";
import { alive } from "../../helpers/process";
import { testModelPath } from "../../helpers/test-model";

/** Prompt tokens the server evaluated (the engine host reports them beside the port's fields). */
const evaluated = (r: GenerateResult): number => (r as GenerateResult & { tokensEvaluated?: number }).tokensEvaluated ?? -1;

const bin = requireLlamaServer("the saved-slot tests");
const system: ChatMessage = { role: "system", content: "You are a careful assistant for an Obsidian vault of notes. ".repeat(30) };
// A choice, so the reply is sampled: a reply the grammar forces whole is sent without evaluating the prompt at all.
const GRAMMAR = 'root ::= "fine" | "good"';

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Saved slot states (each with its sidecar); the prompt parts kept beside a slot (sidecar tokens 0) are left out. */
const stateFiles = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir).filter((n) => {
        const sidecar = join(dir, n.replace(/\.state$/, ".json"));
        return n.endsWith(".state") && existsSync(sidecar) && (JSON.parse(readFileSync(sidecar, "utf8")) as { tokens?: number }).tokens !== 0;
      })
    : [];

describe.skipIf(!bin)("llama-server saved slots (real llama-server)", () => {
  let dir: string;
  let model: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "va-slots-"));
    model = await testModelPath();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function managed(slots: string) {
    const server = new ManagedLlamaServer({ binary: join(bin!, "llama-server"), model, contextSize: 2048, threads: 1, slotSavePath: slots, backoffMs: [0] });
    return { server, engine: new ManagedLlamaEngine(server, (config) => createNodeEngine({ server: config })) };
  }

  it("after a restart, the conversation's next request evaluates only its new tokens", async () => {
    const slots = join(dir, "restart");
    const { server, engine } = managed(slots);
    try {
      const first = await engine.generate({ messages: [system, { role: "user", content: "List my notes." }], grammar: GRAMMAR, maxTokens: 4, conversationId: "c1" });
      expect(first.text).toMatch(/^(fine|good)$/);
      expect(evaluated(first)).toBeGreaterThan(300);
      // Saved once the slot has been idle (about a second), without any unload.
      await until("the slot's state file", () => stateFiles(slots).length === 1);
      const sidecar = JSON.parse(readFileSync(join(slots, stateFiles(slots)[0].replace(/\.state$/, ".json")), "utf8")) as { bytes: number; tokens: number; key: string };
      expect(sidecar.bytes).toBe(statSync(join(slots, stateFiles(slots)[0])).size);
      expect(sidecar.tokens).toBeGreaterThanOrEqual(first.tokensIn);
      // A crash: nothing is flushed on the way down.
      const pid = server.pid!;
      process.kill(pid, "SIGKILL");
      await until("the server's exit", () => !alive(pid) && server.state !== "ready");
      const turn2: ChatMessage[] = [system, { role: "user", content: "List my notes." }, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }];
      // The first request after the crash may fail with the one sentence; the one after it runs on the new server.
      const second = await engine.generate({ messages: turn2, grammar: GRAMMAR, maxTokens: 4, conversationId: "c1" }).catch(() => engine.generate({ messages: turn2, grammar: GRAMMAR, maxTokens: 4, conversationId: "c1" }));
      expect(server.pid).not.toBe(pid);
      expect(second.tokensIn).toBeGreaterThan(first.tokensIn);
      expect(evaluated(second)).toBeLessThan(40);
      // (Without a usable saved slot the restarted server evaluates the whole prompt: the next test.)
    } finally {
      await engine.shutdown();
    }
  }, 240_000);

  it("a saved slot made for another model or context is refused, and the prompt is evaluated whole", async () => {
    const slots = join(dir, "refused");
    const { server, engine } = managed(slots);
    try {
      const first = await engine.generate({ messages: [system, { role: "user", content: "List my notes." }], grammar: GRAMMAR, maxTokens: 4, conversationId: "c1" });
      await until("the slot's state file", () => stateFiles(slots).length === 1);
      await engine.unload();
      const sidecarFile = join(slots, stateFiles(slots)[0].replace(/\.state$/, ".json"));
      const sidecar = JSON.parse(readFileSync(sidecarFile, "utf8")) as { key: string };
      writeFileSync(sidecarFile, JSON.stringify({ ...sidecar, key: sidecar.key.replace(/ctx\d+/, "ctx999") }));
      const turn2: ChatMessage[] = [system, { role: "user", content: "List my notes." }, { role: "assistant", content: first.text }, { role: "user", content: "And the tags?" }];
      const second = await engine.generate({ messages: turn2, grammar: GRAMMAR, maxTokens: 4, conversationId: "c1" });
      expect(server.state).toBe("ready");
      expect(evaluated(second)).toBeGreaterThan(300);
      // The refused state was deleted; the turn's own state is written a second after it, with the right key.
      expect(existsSync(sidecarFile)).toBe(false);
      await until("the new state", () => existsSync(sidecarFile));
      expect((JSON.parse(readFileSync(sidecarFile, "utf8")) as { key: string }).key).toBe(sidecar.key);
    } finally {
      await engine.shutdown();
    }
  }, 240_000);
});

describe("the host's store of llama-server slot files", () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "va-slot-store-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the folder within its bound, least recently used first, and keys states by model and context", async () => {
    const modelFile = join(dir, "model.gguf");
    writeFileSync(modelFile, Buffer.alloc(4096, 7));
    const folder = join(dir, "slots");
    mkdirSync(folder);
    const store = serverSlotStates({ dir: folder, maxBytes: 2500 }, { modelPath: modelFile, contextSize: 2048, build: "b1" })!;
    const write = async (name: string, age: number) => {
      const file = join(folder, store.fileName(name));
      writeFileSync(file, Buffer.alloc(1000, 1));
      const when = new Date(Date.now() - age * 1000);
      utimesSync(file, when, when);
      await store.saved(name, { bytes: 1000, tokens: 10 });
      utimesSync(file, when, when);
    };
    await write("old", 30);
    await write("middle", 20);
    expect(await store.usable("old")).toBe(true);
    // Restoring "old" marks it used: "middle" is now the least recently used.
    await store.restored("old");
    await write("new", 0);
    expect(await store.usable("middle")).toBe(false);
    expect(await store.usable("old")).toBe(true);
    expect(await store.usable("new")).toBe(true);
    expect(stateFiles(folder)).toHaveLength(2);
    // Another context size (or model, or build) refuses the same files with one sentence, and deletes them.
    const other = serverSlotStates({ dir: folder }, { modelPath: modelFile, contextSize: 4096, build: "b1" })!;
    await expect(other.usable("new")).rejects.toThrow(/^The saved state of this conversation was made for another model, context size or prompt format; it was discarded/);
    expect(existsSync(join(folder, store.fileName("new")))).toBe(false);
  });
});
