import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Conversation } from "../../../src/core/agent/conversation";
import { GbnfRecognizer } from "../../../src/core/grammar";
import type { ConfirmRequest, UserPort } from "../../../src/core/ports/user";
import { ScriptedEngine, scriptedTokenCount, type ScriptStep, type ScriptedEngineOptions } from "../../../src/engine/scripted";
import { TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import { composeHeadless, type HeadlessOptions } from "../../../src/node/compose";
import { copyVault, envelope, EventLog, snapshot, grammarTools } from "./scripted-helpers";

const NOW = () => new Date("2026-11-22T10:00:00");

async function setup(script: ScriptStep[], opts: Omit<Partial<HeadlessOptions>, "engine"> & { scripted?: ScriptedEngineOptions } = {}) {
  const dir = copyVault();
  const engine = new ScriptedEngine(script, opts.scripted);
  const { scripted: _s, ...rest } = opts;
  const headless = await composeHeadless({ vault: dir, now: NOW, ...rest, engine });
  return { dir, engine, headless, agent: headless.agent, before: snapshot(dir) };
}

/** Whether the grammar lets vault:read take a key its schema lacks (true only for the looser static grammar). */
function acceptsForeignKey(gbnf: string | undefined): boolean {
  return new GbnfRecognizer(gbnf ?? "").acceptsPrefix('{"thought":"","status":"Task","message_to_user":null,"tool_calls":[{"name":"vault:read","args":{"file":"');
}

/** Scripted replies that a grounded grammar could never produce (a blank or escaping path): grounding off, so the recovery under test is what runs. */
const UNGROUNDED = { grounding: false };

describe("agent turns with the scripted engine over examples/vault", () => {
  it("chat only: small talk gets no tools, a grammar without tool calls, and a streamed answer", async () => {
    const { agent, engine, dir, before } = await setup([envelope([], "Hello! Ask me about your notes.")]);
    const log = new EventLog();
    const r = await agent.runTurn("hello there", { onEvent: log.listener });
    expect(r).toMatchObject({ outcome: "done", message: "Hello! Ask me about your notes.", rounds: 1 });
    expect(log.of("routed")[0]).toMatchObject({ chatOnly: true, tools: [], branch: "chat" });
    expect(engine.requests[0].grammar).toBeDefined();
    expect(grammarTools(engine.requests[0].grammar)).toEqual([]);
    expect(log.of("message-delta").map((e) => e.text).join("")).toBe("Hello! Ask me about your notes.");
    expect(log.of("message-delta").length).toBeGreaterThan(1);
    expect(log.types()).toEqual(["turn-start", "routed", "thought-delta", "message-delta", "turn-end"]);
    expect(snapshot(dir)).toEqual(before);
  });

  it("one tool: reads a note and answers from its text", async () => {
    const { agent, engine } = await setup([
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]),
      (req) => envelope([], req.messages.at(-1)!.content.includes("Renew car insurance") ? "Your inbox starts with renewing the car insurance." : "I could not read it."),
    ]);
    const log = new EventLog();
    const r = await agent.runTurn("read my Inbox note", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(r.message).toBe("Your inbox starts with renewing the car insurance.");
    expect(r.toolResults).toHaveLength(1);
    expect(r.toolResults[0]).toMatchObject({ name: "vault:read", ok: true, args: { path: "Inbox.md" } });
    expect(grammarTools(engine.requests[0].grammar)).toContain("vault:read");
    // The offered tools travel in the turn's user message; the system message stays the same for every turn.
    expect(engine.requests[0].messages.at(-1)!.content).toContain("- vault:read {path: string, heading?: string, offset?: integer}");
    expect(engine.requests[0].messages[0].content).not.toContain("- vault:read");
    expect(log.types()).toEqual(["turn-start", "routed", "thought-delta", "tool-call", "tool-result", "thought-delta", "message-delta", "turn-end"]);
    expect(log.of("turn-end")[0]).toMatchObject({ outcome: "done", rounds: 2 });
    expect(log.of("turn-end")[0].tokensIn).toBeGreaterThan(0);
  });

  it("router unsure: a message nothing matches clearly gets the full catalog's grammar", async () => {
    const { agent, engine, headless } = await setup([envelope([], "Could you say that another way?")]);
    const log = new EventLog();
    await agent.runTurn("please frobnicate the quux gadget with the zorp module", { onEvent: log.listener });
    expect(log.of("routed")[0]).toMatchObject({ chatOnly: false, branch: "full" });
    // examples/vault holds no PDF, base or canvas: the tools that must name one are left out until one exists.
    const uncallable = ["base:edit", "base:read", "canvas:edit", "canvas:read", "pdf:read"];
    expect(grammarTools(engine.requests[0].grammar)).toEqual([...headless.registry.names()].filter((n) => !uncallable.includes(n)).sort());
  });

  it("a long tool result reaches the model cut to the result budget, saying how much was left out", async () => {
    const { agent, engine } = await setup([envelope([{ name: "vault:read", args: { path: "Projects/Project Alpha.md" } }]), envelope([], "ok")], {
      agentOptions: { resultChars: 120 },
    });
    const r = await agent.runTurn("read my Project Alpha note");
    expect(r.toolResults[0].content).toMatch(/\n… \(\d+ more characters; not shown; ask for less\)$/);
    expect(r.toolResults[0].content.length).toBeLessThan(120 + 60);
    expect(engine.requests[1].messages.at(-1)!.content).toContain("more characters; not shown");
  });

  it("two rounds: searches, then reads the note it found", async () => {
    const { agent } = await setup([
      envelope([{ name: "vault:search", args: { query: "lentils" } }]),
      (req) => {
        const found = /Recipes\/Red Lentil Soup/.test(req.messages.at(-1)!.content);
        return envelope([{ name: "vault:read", args: { path: found ? "Recipes/Red Lentil Soup.md" : "Missing.md" } }]);
      },
      envelope([], "The soup needs red lentils."),
    ]);
    const r = await agent.runTurn("find notes about lentils and read the best one");
    expect(r.outcome).toBe("done");
    expect(r.toolResults.map((t) => [t.name, t.ok])).toEqual([
      ["vault:search", true],
      ["vault:read", true],
    ]);
    expect(r.toolResults[1].content).toContain("Red Lentil Soup");
    expect(r.rounds).toBe(3);
  });

  it("recovery: an empty required field gets a correction and a grammar with only the failing tool", async () => {
    const { agent, engine } = await setup([
      envelope([{ name: "vault:read", args: { path: " " } }]),
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]),
      envelope([], "Done."),
    ], UNGROUNDED);
    const log = new EventLog();
    const r = await agent.runTurn("read my Inbox note and list its tasks", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(log.of("error")[0]).toMatchObject({ code: "empty_required", recoverable: true });
    expect(r.toolResults.map((t) => t.ok)).toEqual([false, true]);
    expect(grammarTools(engine.requests[0].grammar)).toEqual(expect.arrayContaining(["tasks:list", "vault:read"]));
    expect(grammarTools(engine.requests[1].grammar)).toEqual(["vault:read"]);
    expect(engine.requests[1].messages.at(-1)!.content).toMatch(/Correction: Tool "vault:read" needs a non-empty "path"/);
    // Back to the routed tools once the correction worked.
    expect(grammarTools(engine.requests[2].grammar)).toEqual(grammarTools(engine.requests[0].grammar));
  });

  it("an Idle reply that calls a tool is not run, but gets a correction and a targeted retry that runs", async () => {
    const { agent, engine } = await setup([
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }], null, "Idle"),
      // During Recover the loop owns the state: the retried call runs whatever status the reply claims.
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }], null, "Idle"),
      envelope([], "Done."),
    ]);
    const log = new EventLog();
    const r = await agent.runTurn("read my Inbox note", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(log.of("error")).toEqual([expect.objectContaining({ code: "not_allowed_in_state", recoverable: true })]);
    expect(r.toolResults.map((t) => [t.ok, t.error?.code])).toEqual([
      [false, "not_allowed_in_state"],
      [true, undefined],
    ]);
    expect(engine.requests[1].messages.at(-1)!.content).toMatch(/"Idle" reply must not call tools.*Call vault:read again in a reply with status "Task"/s);
    expect(grammarTools(engine.requests[1].grammar)).toEqual(["vault:read"]);
  });

  it("a reflecting reply may read but a write it calls is held for a retry with status Task", async () => {
    const user: UserPort = { confirm: async () => "approve", notify: () => {} };
    const { agent, dir } = await setup(
      [
        envelope([{ name: "vault:append", args: { path: "Inbox.md", content: "- [ ] reflect" } }], null, "Reflect"),
        envelope([{ name: "vault:append", args: { path: "Inbox.md", content: "- [ ] reflect" } }], null, "Task"),
        envelope([], "Added."),
      ],
      { user, allowWrites: true },
    );
    const r = await agent.runTurn("add reflect to my Inbox note");
    expect(r.outcome).toBe("done");
    expect(r.toolResults.map((t) => [t.ok, t.error?.code])).toEqual([
      [false, "not_allowed_in_state"],
      [true, undefined],
    ]);
    expect(readFileSync(join(dir, "Inbox.md"), "utf8").match(/- \[ \] reflect/g)).toHaveLength(1);
  });

  it("recovery ladder: targeted grammar, then the static grammar, then a clear stop within the budget", async () => {
    const bad = envelope([{ name: "vault:read", args: { path: " " } }]);
    const { agent, engine } = await setup([bad, bad, bad, bad], UNGROUNDED);
    const log = new EventLog();
    const r = await agent.runTurn("read my Inbox note", { onEvent: log.listener });
    expect(r.outcome).toBe("failed");
    expect(engine.served).toBe(4);
    expect(acceptsForeignKey(engine.requests[1].grammar)).toBe(false);
    expect(acceptsForeignKey(engine.requests[2].grammar)).toBe(true);
    expect(grammarTools(engine.requests[2].grammar)).toEqual(["vault:read"]);
    const last = log.of("error").at(-1)!;
    expect(last).toMatchObject({ code: "recovery_exhausted", recoverable: false });
    expect(last.message).toMatch(/Stopped after 3 corrections: .*non-empty "path".*Try rephrasing/);
    expect(agent.conversation.entries.at(-1)).toMatchObject({ kind: "assistant", placeholder: "failed" });
  });

  it("alias repair: under the looser static grammar a wrong key is renamed before validation", async () => {
    const bad = envelope([{ name: "vault:read", args: { path: " " } }]);
    const { agent, engine } = await setup([bad, bad, envelope([{ name: "vault:read", args: { file: "Inbox.md" } }]), envelope([], "ok")], UNGROUNDED);
    const r = await agent.runTurn("read my Inbox note");
    expect(r.outcome).toBe("done");
    expect(acceptsForeignKey(engine.requests[2].grammar)).toBe(true);
    expect(r.toolResults.at(-1)).toMatchObject({ ok: true, args: { path: "Inbox.md" } });
  });

  it("recovery from a schema violation: ajv's complaint becomes the correction, and the corrected call runs", async () => {
    // Without a grammar (prompt-only) the model can write a wrong type; the gatekeeper's ajv check catches it.
    const { agent, engine } = await setup(
      [envelope([{ name: "vault:read", args: { path: "Inbox.md", offset: "ten" } }]), envelope([{ name: "vault:read", args: { path: "Inbox.md", offset: 10 } }]), envelope([], "Done.")],
      { agentOptions: { grammar: false } },
    );
    const log = new EventLog();
    const r = await agent.runTurn("read my Inbox note", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(log.of("error")).toEqual([expect.objectContaining({ code: "invalid_args", recoverable: true })]);
    expect(r.toolResults.map((t) => t.ok)).toEqual([false, true]);
    expect(engine.requests[1].messages.at(-1)!.content).toMatch(/Correction: Tool "vault:read" got invalid arguments: .*offset.*Call vault:read again with corrected arguments/s);
    // The retry replays the first round byte for byte: the system message and the turn block are unchanged.
    expect(engine.requests[1].messages[0]).toEqual(engine.requests[0].messages[0]);
    expect(engine.requests[1].messages[1]).toEqual(engine.requests[0].messages[1]);
  });

  it("alias repair without a grammar (prompt-only mode)", async () => {
    const { agent, engine } = await setup([envelope([{ name: "vault:read", args: { note: "Inbox.md" } }]), envelope([], "ok")], { agentOptions: { grammar: false } });
    const r = await agent.runTurn("read my Inbox note");
    expect(engine.requests[0].grammar).toBeUndefined();
    expect(r.toolResults[0]).toMatchObject({ ok: true, args: { path: "Inbox.md" } });
  });

  it("semantic guard: during recovery an empty result counts as a failure and the ladder goes on", async () => {
    const { agent, dir, engine } = await setup([
      envelope([{ name: "vault:read", args: { path: " " } }]),
      envelope([{ name: "vault:read", args: { path: "Empty.md" } }]),
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]),
      envelope([], "Done."),
    ], UNGROUNDED);
    writeFileSync(join(dir, "Empty.md"), "");
    const log = new EventLog();
    const r = await agent.runTurn("read my Inbox note", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(log.of("error").map((e) => e.code)).toEqual(["empty_required", "empty_result"]);
    expect(r.toolResults.map((t) => [t.ok, t.empty ?? false])).toEqual([
      [false, false],
      [true, true],
      [true, false],
    ]);
    // The second correction moved to the looser static grammar.
    expect(acceptsForeignKey(engine.requests[2].grammar)).toBe(true);
  });

  it("asks for maxTokens = min(the grammar's byte bound, the context left after the counted prompt)", async () => {
    // Tokens a message costs in the budget: its counted text plus the template allowance (6), and a 64-token margin.
    const promptTokens = (req: { messages: { content: string }[] }) => req.messages.reduce((n, m) => n + scriptedTokenCount(m.content) + 6, 0);
    // The compiler's default grammar allows far more bytes than the context: the context decides.
    const wide = await setup([envelope([], "Hi.")], { scripted: { contextSize: 4096 } });
    await wide.agent.runTurn("hello there");
    const w = wide.engine.requests[0];
    expect(wide.headless.grammars.get([], "dynamic").maxBytes).toBeGreaterThan(4096);
    expect(w.maxTokens).toBe(4096 - 64 - promptTokens(w));
    // Short test-model caps: the grammar's bound decides.
    const narrow = await setup([envelope([], "Hi.")], { scripted: { contextSize: 4096 }, grammarOptions: TEST_MODEL_GRAMMAR });
    await narrow.agent.runTurn("hello there");
    const bound = Math.ceil(narrow.headless.grammars.get([], "dynamic").maxBytes);
    expect(bound).toBeLessThan(4096 - 64 - promptTokens(narrow.engine.requests[0]));
    expect(narrow.engine.requests[0].maxTokens).toBe(bound);
  });

  it("attached notes reach the model after the message", async () => {
    const { agent, engine } = await setup([envelope([], "It is about soup.")]);
    await agent.runTurn("hello there", { attachments: [{ path: "Recipes/Red Lentil Soup.md", text: "250 g red lentils" }] });
    const last = engine.requests[0].messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content).toMatch(/\nMessage: hello there\n\n\[Attached note Recipes\/Red Lentil Soup.md\]\n250 g red lentils$/);
  });

  it("refuses a path that escapes the vault and tells the model why; the turn goes on", async () => {
    const { agent, dir, before } = await setup([envelope([{ name: "vault:read", args: { path: "../../etc/passwd" } }]), envelope([], "I can only read notes inside your vault.")], UNGROUNDED);
    const log = new EventLog();
    const r = await agent.runTurn("read my note ../../etc/passwd", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(r.toolResults[0]).toMatchObject({ ok: false, error: { code: "path_refused" } });
    expect(r.toolResults[0].content).toMatch(/uses "\.\." and could leave the vault/);
    expect(log.of("error")).toHaveLength(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("refuses a write without permission, asks nobody and leaves the vault unchanged", async () => {
    const asked: ConfirmRequest[] = [];
    const user: UserPort = { confirm: async (r) => (asked.push(r), "approve"), notify: () => {} };
    const { agent, dir, before } = await setup(
      [envelope([{ name: "vault:append", args: { path: "Shopping List.md", content: "- [ ] Oat milk" } }]), envelope([], "Writes are off.")],
      { user, allowWrites: false },
    );
    const r = await agent.runTurn("add oat milk to my Shopping List note");
    expect(r.toolResults[0]).toMatchObject({ ok: false, error: { code: "write_not_permitted" } });
    expect(r.toolResults[0].content).toMatch(/rerun with --allow-writes/);
    expect(asked).toHaveLength(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it("a confirmed write shows a diff preview, then changes the note", async () => {
    const asked: ConfirmRequest[] = [];
    const user: UserPort = { confirm: async (r) => (asked.push(r), "approve"), notify: () => {} };
    const { agent, dir } = await setup(
      [envelope([{ name: "vault:append", args: { path: "Shopping List.md", content: "- [ ] Oat milk" } }]), envelope([], "Added.")],
      { user, allowWrites: true },
    );
    const log = new EventLog();
    const r = await agent.runTurn("add oat milk to my Shopping List note", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(asked[0]).toMatchObject({ tool: "vault:append", effect: "write", previewKind: "diff" });
    expect(asked[0].preview).toContain("+- [ ] Oat milk");
    expect(log.types()).toContain("confirm-asked");
    expect(log.of("confirm-answered")[0].decision).toBe("approve");
    expect(readFileSync(join(dir, "Shopping List.md"), "utf8")).toMatch(/- \[ \] Oat milk\n?$/);
  });

  it("a denied write changes nothing and the model hears why", async () => {
    const user: UserPort = { confirm: async () => "deny", notify: () => {} };
    const { agent, dir, before } = await setup(
      [envelope([{ name: "vault:append", args: { path: "Shopping List.md", content: "x" } }]), envelope([], "Okay, I left it.")],
      { user, allowWrites: true },
    );
    const r = await agent.runTurn("add x to my Shopping List note");
    expect(r.toolResults[0]).toMatchObject({ ok: false, error: { code: "denied_by_user" } });
    expect(snapshot(dir)).toEqual(before);
  });

  it("abort mid-stream ends the turn cleanly, keeps history consistent, and the next turn works", async () => {
    const controller = new AbortController();
    const user: UserPort = { confirm: async () => "approve", notify: () => {} };
    const second = envelope([], "This long answer is being streamed and will be cut off by the abort before it is complete.");
    const { agent, dir } = await setup(
      [envelope([{ name: "vault:append", args: { path: "Inbox.md", content: "- [ ] call mum" } }]), second, envelope([], "Fresh turn.")],
      {
        user,
        allowWrites: true,
        scripted: { chunkChars: 5, onChunk: (soFar) => soFar.length > 40 && soFar.includes("streamed") && controller.abort() },
      },
    );
    const log = new EventLog();
    const r = await agent.runTurn("add call mum to my Inbox note", { signal: controller.signal, onEvent: log.listener });
    expect(r.outcome).toBe("aborted");
    expect(log.of("turn-end")[0].outcome).toBe("aborted");
    // The write of round 1 completed in full; nothing half-written.
    expect(readFileSync(join(dir, "Inbox.md"), "utf8")).toContain("- [ ] call mum\n");
    const kinds = agent.conversation.entries.map((e) => e.kind);
    expect(kinds).toEqual(["user", "assistant", "tool-results", "assistant"]);
    expect(agent.conversation.entries.at(-1)).toMatchObject({ placeholder: "aborted" });
    const next = await agent.runTurn("hello there");
    expect(next).toMatchObject({ outcome: "done", message: "Fresh turn." });
  });

  it("abort while the user is asked to confirm: the write never runs", async () => {
    const controller = new AbortController();
    const user: UserPort = { confirm: async () => (controller.abort(), "approve"), notify: () => {} };
    const { agent, dir, before } = await setup([envelope([{ name: "vault:append", args: { path: "Inbox.md", content: "x" } }])], { user, allowWrites: true });
    const r = await agent.runTurn("add x to my Inbox note", { signal: controller.signal });
    expect(r.outcome).toBe("aborted");
    expect(snapshot(dir)).toEqual(before);
    expect(agent.conversation.entries.map((e) => e.kind)).toEqual(["user", "assistant", "tool-results", "assistant"]);
  });

  it("stops at the round cap", async () => {
    // Three different calls: the same call three times would end the turn as a repeat.
    const call = (offset: number) => envelope([{ name: "vault:read", args: { path: "Inbox.md", offset } }]);
    const { agent, engine } = await setup([call(0), call(1), call(2)], { agentOptions: { maxRounds: 3 } });
    const r = await agent.runTurn("read my Inbox note");
    expect(r.outcome).toBe("round-cap");
    expect(engine.served).toBe(3);
  });

  it("a conversation survives JSON and continues", async () => {
    const { agent, headless } = await setup([envelope([], "one"), envelope([], "two")]);
    await agent.runTurn("hello there");
    const saved = JSON.stringify(agent.conversation.toJSON());
    agent.conversation = Conversation.fromJSON(saved);
    await agent.runTurn("thanks!");
    expect(agent.conversation.entries.map((e) => e.kind)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(() => Conversation.fromJSON({ version: 9 })).toThrow(/version 9/);
    await headless.close();
  });

  it("a reply the grammar would not allow fails the turn (the scripted engine enforces the grammar)", async () => {
    const { agent, engine } = await setup(['{"thought":"x","status":"Task","message_to_user":null,"tool_calls":[{"name":"vault:delete","args":{"path":"Inbox.md"}}]}']);
    const log = new EventLog();
    const r = await agent.runTurn("hello there", { onEvent: log.listener });
    expect(r.outcome).toBe("failed");
    expect(log.of("error")[0].message).toMatch(/not allowed by the grammar/);
    expect(engine.served).toBe(1);
  });
});
