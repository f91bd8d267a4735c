import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { composeHeadless } from "../../../src/node/compose";
import { offeredText, offeredTitle } from "../../../src/plugin/chat/render-items";
import { Transcript } from "../../../src/plugin/chat/transcript";
import { copyVault, envelope, EventLog, grammarTools } from "./scripted-helpers";

const NOW = () => new Date("2026-11-22T10:00:00");

/** A temp copy of examples/vault with two notes about composting, and the agent over it (narrowing on: the default). */
async function setup(script: ScriptStep[], grounding = true) {
  const dir = copyVault();
  mkdirSync(join(dir, "Garden"));
  writeFileSync(join(dir, "Garden/Compost log.md"), "# Compost log\n\nTurned the compost heap; it needs more brown leaves.\n");
  writeFileSync(join(dir, "Garden/Worm bin.md"), "# Worm bin\n\nComposting kitchen scraps with worms works best without citrus.\n");
  const engine = new ScriptedEngine(script);
  const headless = await composeHeadless({ vault: dir, now: NOW, engine, allowWrites: true, grounding });
  return { dir, engine, agent: headless.agent };
}

describe("routing before each round: a scripted model carries out search → read → write", () => {
  it("a request that names only the last step (add to the journal) gets the reader once search found notes, without losing search", async () => {
    const { dir, engine, agent } = await setup([
      envelope([{ name: "vault:search", args: { query: "composting" } }], null, "Task", "First find the notes about composting."),
      (req) => {
        const found = /Garden\/Worm bin/.test(req.messages.at(-1)!.content);
        return envelope([{ name: "vault:read", args: { path: found ? "Garden/Worm bin.md" : "Missing.md" } }], null, "Task", "Now read what I found.");
      },
      (req) => {
        const read = req.messages.at(-1)!.content.includes("without citrus");
        return envelope([{ name: "daily:append", args: { content: read ? "- Compost worms: no citrus." : "- nothing read" } }], null, "Task", "Add the tips to today's journal.");
      },
      envelope([], "The tips are in today's journal."),
    ]);
    const log = new EventLog();
    const r = await agent.runTurn("Add the composting tips from my notes to today's journal", { onEvent: log.listener });
    expect(r.outcome).toBe("done");
    expect(r.toolResults.map((t) => [t.name, t.ok])).toEqual([
      ["vault:search", true],
      ["vault:read", true],
      ["daily:append", true],
    ]);
    expect(readFileSync(join(dir, "Daily/2026-11-22.md"), "utf8")).toContain("Compost worms: no citrus.");

    // Round 1 offers the router's choice for the words: the writer, and search to find the notes it names by their
    // content (to look before acting), not yet the reader.
    const round1 = grammarTools(engine.requests[0].grammar);
    expect(round1).toEqual(expect.arrayContaining(["vault:search", "daily:append"]));
    expect(round1).not.toContain("vault:read");
    // Round 2 widens with what happened (search named notes): the reader joins, search stays.
    const round2 = grammarTools(engine.requests[1].grammar);
    expect(round2).toEqual(expect.arrayContaining(["vault:read", "vault:search", "daily:append"]));
    // The grammar is exactly the round's offer, as its routed event says.
    const routed = log.of("routed");
    expect(routed[0]).toMatchObject({ round: 1, branch: "routed" });
    expect(routed[0].tools.map((t) => t.name).sort()).toEqual(round1);
    const widened = routed.find((e) => e.round === 2);
    expect(widened).toMatchObject({ branch: "routed", added: expect.arrayContaining(["vault:read"]) });
    expect(widened!.tools.map((t) => t.name).sort()).toEqual(round2);
    // A later round never loses a tool: every round's grammar holds the ones before it.
    for (let i = 1; i < engine.requests.length; i++) {
      expect(grammarTools(engine.requests[i].grammar)).toEqual(expect.arrayContaining(grammarTools(engine.requests[i - 1].grammar)));
    }
  });

  it("a tool added later is announced after the results: the turn block and everything before stay as sent", async () => {
    const { engine, agent } = await setup([
      envelope([{ name: "vault:search", args: { query: "composting" } }]),
      envelope([{ name: "vault:read", args: { path: "Garden/Worm bin.md" } }]),
      envelope([], "Done."),
    ]);
    await agent.runTurn("Add the composting tips from my notes to today's journal");
    const first = engine.requests[0].messages;
    const second = engine.requests[1].messages;
    // The evaluated prefix only grows: round 2's messages start with round 1's, byte for byte.
    expect(second.slice(0, first.length)).toEqual(first);
    expect(first.at(-1)!.content).not.toContain("- vault:read {");
    const results = second.at(-1)!.content;
    expect(results.startsWith("Tool results:")).toBe(true);
    expect(results).toMatch(/You may now also call:\n- vault:read \{path: string/);
    // Announced once: round 3 carries the same announcement in its history, and no second one.
    const third = engine.requests[2].messages;
    expect(third.slice(0, second.length)).toEqual(second);
    expect(third.at(-1)!.content).not.toContain("You may now also call:");
  });

  it("the model's thought widens the next round: a step the request did not name becomes callable", async () => {
    const { engine, agent } = await setup([
      envelope([{ name: "vault:search", args: { query: "composting" } }], null, "Task", "Search first; then add a new task to buy brown leaves."),
      envelope([{ name: "tasks:add", args: { text: "Buy brown leaves" } }], null, "Task", "Adding the task."),
      envelope([], "Done."),
    ]);
    const log = new EventLog();
    const r = await agent.runTurn("Add the composting tips from my notes to today's journal", { onEvent: log.listener });
    expect(grammarTools(engine.requests[0].grammar)).not.toContain("tasks:add");
    expect(grammarTools(engine.requests[1].grammar)).toContain("tasks:add");
    expect(r.toolResults.map((t) => [t.name, t.ok])).toEqual([
      ["vault:search", true],
      ["tasks:add", true],
    ]);
    expect(log.of("routed").find((e) => e.round === 2)?.added).toEqual(expect.arrayContaining(["tasks:add"]));
  });

  it("a failed call narrows the retry to the repaired tool, then the widened offer comes back", async () => {
    const { engine, agent } = await setup([
      envelope([{ name: "vault:search", args: { query: "composting" } }]),
      envelope([{ name: "vault:read", args: { path: " " } }]),
      envelope([{ name: "vault:read", args: { path: "Garden/Worm bin.md" } }]),
      envelope([], "Done."),
    ], false); // a blank path, which a grounded grammar never admits: the recovery under test runs ungrounded
    const log = new EventLog();
    const r = await agent.runTurn("Add the composting tips from my notes to today's journal", { onEvent: log.listener });
    expect(r.toolResults.map((t) => [t.name, t.ok])).toEqual([
      ["vault:search", true],
      ["vault:read", false],
      ["vault:read", true],
    ]);
    expect(grammarTools(engine.requests[2].grammar)).toEqual(["vault:read"]);
    expect(log.of("routed").find((e) => e.round === 3)).toMatchObject({ branch: "targeted", tools: [expect.objectContaining({ name: "vault:read" })] });
    // Recovered: the turn's widened offer again, with search (used) and the reader (added).
    expect(grammarTools(engine.requests[3].grammar)).toEqual(grammarTools(engine.requests[1].grammar));
  });
});

describe("the chat pane shows each call's round offer", () => {
  it("tool cards carry the offer of the round that made the call, the widened round's new tools marked", async () => {
    const { agent } = await setup([
      envelope([{ name: "vault:search", args: { query: "composting" } }]),
      envelope([{ name: "vault:read", args: { path: "Garden/Worm bin.md" } }]),
      envelope([], "Done."),
    ]);
    const transcript = new Transcript(() => 0);
    await agent.runTurn("Add the composting tips from my notes to today's journal", { onEvent: (e) => void transcript.apply(e) });
    const cards = transcript.items.filter((i) => i.kind === "tool");
    expect(cards.map((c) => c.name)).toEqual(["vault:search", "vault:read"]);
    expect(cards[0].offered).toMatchObject({ round: 1, added: [] });
    expect(cards[0].offered!.tools).not.toContain("vault:read");
    expect(cards[1].offered).toMatchObject({ round: 2, added: expect.arrayContaining(["vault:read"]) });
    expect(offeredTitle(cards[1].offered!)).toMatch(/^Tools offered in round 2 \(\d+ new\)$/);
    expect(offeredText(cards[1].offered!)).toContain("vault:read (new)");
    expect(offeredText(cards[1].offered!)).toContain("vault:search");
    expect(offeredText(cards[1].offered!)).not.toContain("vault:search (new)");
  });
});
