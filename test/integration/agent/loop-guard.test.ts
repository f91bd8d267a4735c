import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { noProgressCorrection, noProgressEnd, repeatCorrection, repeatEnd } from "../../../src/core/agent/loop-guard";
import type { ConfirmRequest, UserPort } from "../../../src/core/ports/user";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { composeHeadless, type HeadlessOptions } from "../../../src/node/compose";
import { copyVault, envelope, EventLog } from "./scripted-helpers";

async function setup(script: ScriptStep[], opts: Omit<Partial<HeadlessOptions>, "engine"> = {}) {
  const dir = copyVault();
  const engine = new ScriptedEngine(script);
  const headless = await composeHeadless({ vault: dir, now: () => new Date("2026-11-22T10:00:00"), ...opts, engine });
  return { dir, engine, agent: headless.agent };
}

const read = (path: string) => ({ name: "vault:read", args: { path } });
const search = (query: string) => ({ name: "vault:search", args: { query } });

describe("repeated calls", () => {
  it("a call repeated in the same turn does not run again: the model gets the earlier result with the correction", async () => {
    const asked: ConfirmRequest[] = [];
    const user: UserPort = { confirm: async (r) => (asked.push(r), "approve"), notify: () => {} };
    const append = { name: "vault:append", args: { path: "Inbox.md", content: "- [ ] water plants" } };
    const { agent, engine, dir } = await setup([envelope([append]), envelope([append]), envelope([], "Added.")], { user, allowWrites: true });
    const log = new EventLog();
    const r = await agent.runTurn("add water plants to my Inbox note", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(readFileSync(join(dir, "Inbox.md"), "utf8").match(/- \[ \] water plants/g)).toHaveLength(1);
    expect(asked).toHaveLength(1);
    expect(r.toolResults).toHaveLength(2);
    expect(r.toolResults[1].content).toBe(r.toolResults[0].content);
    const prompt = engine.requests[2].messages.at(-1)!.content;
    expect(prompt).toContain(`Correction: ${repeatCorrection("vault:append", "in this turn")}`);
    expect(prompt).toContain(r.toolResults[0].content);
    expect(log.of("error")).toEqual([expect.objectContaining({ code: "repeated_call", recoverable: true })]);
  });

  it("the third identical call ends the turn with one sentence and the results so far", async () => {
    const { agent, engine } = await setup([envelope([read("Inbox.md")]), envelope([read("Inbox.md")]), envelope([read("Inbox.md")]), envelope([], "never sent")]);
    const log = new EventLog();
    const r = await agent.runTurn("read my Inbox note", { onEvent: log.listener });
    expect(engine.served).toBe(3);
    expect(r.outcome).toBe("failed");
    expect(r.toolResults.map((t) => [t.ok, t.error?.code])).toEqual([
      [true, undefined],
      [true, undefined],
      [false, "repeated_call"],
    ]);
    expect(r.toolResults[0].content).toContain("Renew car insurance");
    const last = log.of("error").at(-1)!;
    expect(last).toMatchObject({ code: "repeated_call", recoverable: false, message: repeatEnd("vault:read") });
    expect(repeatEnd("vault:read")).toBe("Stopped: vault:read was called three times with the same arguments; the results so far are above. Try rephrasing the request.");
    expect(agent.conversation.entries.at(-1)).toMatchObject({ kind: "assistant", placeholder: "failed" });
  });

  it("across turns: a call of the last turn repeated after a message that does not ask for it gets the correction", async () => {
    const { agent, engine } = await setup([
      envelope([read("Inbox.md")]),
      envelope([], "Your inbox starts with the car insurance."),
      envelope([read("Inbox.md")]),
      envelope([], "You are welcome."),
    ], { agentOptions: { toolSelection: "full" } });
    await agent.runTurn("read my Inbox note");
    const log = new EventLog();
    const r = await agent.runTurn("thanks, that helps", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(engine.requests[3].messages.at(-1)!.content).toContain(`Correction: ${repeatCorrection("vault:read", "in the last turn")}`);
    expect(log.of("error")).toEqual([expect.objectContaining({ code: "repeated_call", recoverable: true })]);
  });

  it("across turns: a message that asks for the same note again runs the call again, without a correction", async () => {
    const { agent, engine } = await setup([envelope([read("Inbox.md")]), envelope([], "ok"), envelope([read("Inbox.md")]), envelope([], "ok again")]);
    await agent.runTurn("read my Inbox note");
    const log = new EventLog();
    const r = await agent.runTurn("read the inbox once more, please", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(engine.requests[3].messages.at(-1)!.content).not.toContain("Correction:");
    expect(log.of("error")).toHaveLength(0);
  });
});

describe("rounds that find nothing", () => {
  it("two empty rounds in a row get a correction naming what was tried; a third ends the turn saying so", async () => {
    const { agent, engine } = await setup([
      envelope([search("zqxv wombat")]),
      envelope([search("qqzz marmot")]),
      envelope([search("vvkk ocelot")]),
      envelope([], "never sent"),
    ]);
    const log = new EventLog();
    const r = await agent.runTurn("search my notes for wombat zqxv", { onEvent: log.listener });
    expect(engine.served).toBe(3);
    expect(r.toolResults.every((t) => t.ok && t.empty)).toBe(true);
    expect(engine.requests[1].messages.at(-1)!.content).not.toContain("Correction:");
    const twoTried = 'vault:search {"query":"zqxv wombat"}, vault:search {"query":"qqzz marmot"}';
    expect(engine.requests[2].messages.at(-1)!.content).toContain(`Correction: ${noProgressCorrection(twoTried)}`);
    expect(r.outcome).toBe("failed");
    const errors = log.of("error");
    expect(errors.map((e) => [e.code, e.recoverable])).toEqual([
      ["no_progress", true],
      ["no_progress", false],
    ]);
    expect(errors[1].message).toBe(noProgressEnd(`${twoTried}, vault:search {"query":"vvkk ocelot"}`));
    expect(errors[1].message).toMatch(/^Stopped: searched with .*ocelot.* and found nothing\.$/);
  });

  it("a round that finds something resets the count", async () => {
    const { agent } = await setup([envelope([search("zqxv wombat")]), envelope([search("lentils")]), envelope([search("qqzz marmot")]), envelope([search("vvkk ocelot")]), envelope([], "Nothing more.")]);
    const log = new EventLog();
    const r = await agent.runTurn("search my notes for lentils", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(log.of("error").map((e) => [e.code, e.recoverable])).toEqual([["no_progress", true]]);
  });
});
