/**
 * Grounded calls through the real agent over a folder vault (FolderVault, its change events, the subset cache, the
 * gatekeeper, the handlers): the scripted engine checks every reply against the grammar the agent sent.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer } from "../../../src/core/grammar";
import type { GenerateRequest } from "../../../src/core/ports/engine";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { composeHeadless } from "../../../src/node/compose";
import { copyVault, envelope } from "../agent/scripted-helpers";

const NOW = () => new Date("2026-11-22T10:00:00");
const FULL = { toolSelection: "full" as const };

async function setup(script: ScriptStep[]) {
  const dir = copyVault();
  const engine = new ScriptedEngine(script);
  const headless = await composeHeadless({ vault: dir, now: NOW, engine, allowWrites: true, agentOptions: FULL });
  return { dir, engine, headless, agent: headless.agent };
}

/** Whether the request's grammar admits a call of `name` with these args. */
function admits(request: GenerateRequest, name: string, args: Record<string, unknown>): boolean {
  return new GbnfRecognizer(request.grammar ?? "").accepts(envelope([{ name, args }]));
}

describe("grounded calls in a conversation", () => {
  it("a rename during a conversation makes the new path callable and the old one not, from the very next round", async () => {
    const seen: { newPath: boolean; oldPath: boolean }[] = [];
    const { agent, headless } = await setup([
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]),
      envelope([], "Read it."),
      (request) => {
        seen.push({ newPath: admits(request, "vault:read", { path: "Archive/Inbox 2026.md" }), oldPath: admits(request, "vault:read", { path: "Inbox.md" }) });
        return envelope([{ name: "vault:read", args: { path: "Archive/Inbox 2026" } }]);
      },
      envelope([], "Read it again."),
    ]);
    const first = await agent.runTurn("read my Inbox note");
    expect(first.toolResults[0]).toMatchObject({ ok: true });
    // The person renames the note between two messages (Obsidian's rename event; here FolderVault's).
    await headless.vault.move("Inbox.md", "Archive/Inbox 2026.md");
    const second = await agent.runTurn("read the inbox again");
    expect(seen).toEqual([{ newPath: true, oldPath: false }]);
    expect(second.toolResults[0]).toMatchObject({ ok: true });
    expect(second.toolResults[0].content).toContain("Renew car insurance");
  });

  it("a tag the vault has is callable and one it lacks is not; a tag added between two messages becomes callable", async () => {
    const seen: { work: boolean; missing: boolean; added: boolean }[] = [];
    const look = (request: GenerateRequest) =>
      seen.push({ work: admits(request, "tags:notes", { tag: "#work/alpha" }), missing: admits(request, "tags:notes", { tag: "gardening" }), added: admits(request, "tags:notes", { tag: "gardening/roses" }) });
    const { agent, headless } = await setup([
      (request) => (look(request), envelope([{ name: "tags:notes", args: { tag: "work" } }])),
      envelope([], "Found them."),
      (request) => (look(request), envelope([{ name: "tags:notes", args: { tag: "gardening" } }])),
      envelope([], "Found it."),
    ]);
    const first = await agent.runTurn("which notes are tagged #work?");
    expect(first.toolResults[0]).toMatchObject({ ok: true });
    // The person writes a note with a new tag between two messages (Obsidian's create event; here FolderVault's).
    await headless.vault.create("Roses.md", "# Roses\n\nPrune in March. #gardening/roses\n");
    const second = await agent.runTurn("and which notes are tagged #gardening?");
    expect(seen).toEqual([
      { work: true, missing: false, added: false },
      { work: true, missing: true, added: true },
    ]);
    expect(second.toolResults[0].content).toContain("Roses");
  });

  it("an edit of a note the agent has not read is refused with one sentence that says to read it first; nothing is written", async () => {
    const { agent, dir } = await setup([
      envelope([{ name: "vault:edit", args: { path: "Inbox.md", find: "Renew car insurance", replace: "Renew home insurance" } }]),
      envelope([], "I need to read it first."),
    ]);
    const before = readFileSync(join(dir, "Inbox.md"), "utf8");
    const r = await agent.runTurn("in my inbox, change car insurance to home insurance");
    expect(r.toolResults[0]).toMatchObject({ ok: false, error: { code: "path_refused" } });
    expect(r.toolResults[0].content).toBe('Read "Inbox.md" with vault:read before editing it: vault:edit replaces text copied from the note, so nothing was changed.');
    expect(readFileSync(join(dir, "Inbox.md"), "utf8")).toBe(before);
  });

  it("an edit whose find was taken from the note before the user changed it is refused with one sentence; nothing is written", async () => {
    let userText = "";
    const { agent, dir } = await setup([
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]),
      envelope([], "Read it."),
      (request) => {
        // The grammar of this round still admits the text the agent read…
        expect(admits(request, "vault:edit", { path: "Inbox.md", find: "Renew car insurance before 1 December", replace: "x" })).toBe(true);
        // …and while the model writes its reply, the person edits that very line.
        const file = join(dir, "Inbox.md");
        userText = readFileSync(file, "utf8").replace("Renew car insurance before 1 December", "Renewed the car insurance");
        writeFileSync(file, userText);
        return envelope([{ name: "vault:edit", args: { path: "Inbox.md", find: "Renew car insurance before 1 December", replace: "Renew car insurance before 15 December" } }]);
      },
      envelope([], "The note changed; I will read it again."),
    ]);
    await agent.runTurn("read my Inbox note");
    const r = await agent.runTurn("move the car insurance deadline to 15 December");
    expect(r.toolResults[0]).toMatchObject({ ok: false, error: { code: "path_refused" } });
    expect(r.toolResults[0].content).toBe('"Inbox.md" changed after you read it and the text to find is no longer in it; read it again before editing (nothing was changed).');
    expect(readFileSync(join(dir, "Inbox.md"), "utf8")).toBe(userText);
  });

  it("after a read, the round's grammar admits only the note's own text as find and its own headings", async () => {
    const seen: Record<string, boolean> = {};
    const { agent, dir } = await setup([
      envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]),
      (request) => {
        seen.realText = admits(request, "vault:edit", { path: "Inbox.md", find: "Book a dentist follow-up", replace: "x" });
        seen.inventedText = admits(request, "vault:edit", { path: "Inbox.md", find: "Book a dentist appointment", replace: "x" });
        seen.realHeading = admits(request, "vault:read", { path: "Inbox.md", heading: "Someday" });
        seen.inventedHeading = admits(request, "vault:read", { path: "Inbox.md", heading: "Later" });
        seen.missingNote = admits(request, "vault:read", { path: "Inbox (old).md" });
        return envelope([{ name: "vault:edit", args: { path: "Inbox.md", find: "Book a dentist follow-up", replace: "Book a dentist check-up" } }]);
      },
      envelope([], "Done."),
    ]);
    const r = await agent.runTurn("in my inbox, rename the dentist follow-up to a check-up");
    expect(seen).toEqual({ realText: true, inventedText: false, realHeading: true, inventedHeading: false, missingNote: false });
    expect(r.toolResults.map((t) => t.ok)).toEqual([true, true]);
    expect(readFileSync(join(dir, "Inbox.md"), "utf8")).toContain("Book a dentist check-up");
  });

  it("a missing path from an engine without the grammar is refused with the nearest existing paths", async () => {
    const { agent } = await setup([envelope([{ name: "vault:read", args: { path: "Projects/Project Alfa.md" } }]), envelope([], "ok")]);
    agent.options.grammar = false;
    const r = await agent.runTurn("read project alpha");
    expect(r.toolResults[0]).toMatchObject({ ok: false, error: { code: "path_refused" } });
    expect(r.toolResults[0].content).toMatch(/^There is no note at "Projects\/Project Alfa\.md"; the nearest existing paths are "Projects\/Project Alpha\.md", /);
  });

  it("a move onto a note that exists is refused in one sentence and nothing moves", async () => {
    const { agent, dir } = await setup([envelope([{ name: "vault:move", args: { from: "Inbox.md", to: "Ideas.md" } }]), envelope([], "That name is taken.")]);
    const before = readFileSync(join(dir, "Ideas.md"), "utf8");
    const r = await agent.runTurn("rename my inbox to Ideas");
    expect(r.toolResults[0]).toMatchObject({ ok: false, error: { code: "path_refused" } });
    expect(r.toolResults[0].content).toBe('"Ideas.md" already exists and vault:move never overwrites a note; choose another name (nothing was changed).');
    expect(readFileSync(join(dir, "Ideas.md"), "utf8")).toBe(before);
    expect(readFileSync(join(dir, "Inbox.md"), "utf8")).toContain("# Inbox");
  });
});
