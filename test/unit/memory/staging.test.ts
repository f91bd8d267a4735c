/** The staging tier's parts: the staged list, search by words and meaning, the prefetch order, and "contradicts". */
import { describe, expect, it } from "vitest";
import { Conversation } from "../../../src/core/agent/conversation";
import { redactDropped, DROPPED_TEXT } from "../../../src/core/agent/conversation-redact";
import { StagedMemories } from "../../../src/core/memory/staging";
import { searchStaged } from "../../../src/core/memory/staging-search";
import { prefetchWithStaged } from "../../../src/core/memory/staging-prefetch";
import { compareMemory, findConflicts, memoryTitle, type KeptMemory } from "../../../src/core/memory/staging-conflicts";
import type { MemorySearch } from "../../../src/core/protocol/tool";
import { WordEmbedder } from "./word-embedder";

const kept = (path: string, text: string): KeptMemory => ({ path, title: memoryTitle(path), text });

describe("the staged list", () => {
  it("stages a fact once, edits it (remembering the first text) and removes it", () => {
    const staged = new StagedMemories();
    const a = staged.stage({ content: "  The boiler is serviced in   May. ", title: "Boiler", tags: ["#home", "memory"] }, { turnId: "t1", at: 5 });
    expect(a.memory).toEqual({ id: "m1", content: "The boiler is serviced in May.", title: "Boiler", tags: ["home"], at: 5, turnId: "t1" });
    expect(staged.stage({ content: "the boiler is serviced in may." }).duplicate).toBe(true);
    expect(staged.size).toBe(1);
    expect(staged.edit("m1", { content: "The boiler is serviced in June." })).toBe(true);
    expect(staged.get("m1")).toMatchObject({ content: "The boiler is serviced in June.", original: "The boiler is serviced in May." });
    expect(staged.edit("m1", { content: "   " })).toBe(false);
    expect(staged.remove(["m1", "m9"]).map((m) => m.id)).toEqual(["m1"]);
    expect(staged.size).toBe(0);
  });

  it("round-trips with the conversation's saved data, and new ids never reuse old ones", () => {
    const conversation = new Conversation();
    conversation.staged.stage({ content: "Tom's phone number is 555-0101." });
    conversation.staged.stage({ content: "The wifi password is on the fridge." });
    conversation.staged.remove(["m1"]);
    const json = JSON.parse(JSON.stringify(conversation.toJSON()));
    expect(json.staged).toHaveLength(1);
    const restored = Conversation.fromJSON(json);
    expect(restored.staged.list()).toEqual(conversation.staged.list());
    expect(restored.staged.stage({ content: "A third fact." }).memory.id).toBe("m3");
    expect(new Conversation().toJSON()).not.toHaveProperty("staged");
  });
});

describe("finding staged facts", () => {
  const staged = new StagedMemories();
  staged.stage({ content: "Invoices for Cobalt go out as PDF files." }, { at: 1 });
  staged.stage({ content: "The dentist appointment is on Friday at nine." }, { at: 2 });

  it("by words, plurals and longer forms included", async () => {
    const hits = await searchStaged(staged.list(), "which format for the invoice?", 5);
    expect(hits.map((h) => [h.memory.id, h.mode])).toEqual([["m1", "words"]]);
    expect(await searchStaged(staged.list(), "what about the garden", 5)).toEqual([]);
  });

  it("by meaning when an embedder is given", async () => {
    // An embedder that knows synonyms: "tooth doctor" means what "dentist" means, with no word in common.
    const concepts: Record<string, number> = { dentist: 0, tooth: 0, doctor: 0, invoice: 1, invoices: 1, bill: 1 };
    const embedded: string[] = [];
    const embed = async (texts: string[]) => {
      embedded.push(...texts);
      return texts.map((t) => {
        const v = [0, 0, 0.01];
        for (const w of t.toLowerCase().match(/\p{L}+/gu) ?? []) if (w in concepts) v[concepts[w]] += 1;
        return v;
      });
    };
    expect(await searchStaged(staged.list(), "tooth doctor", 5)).toEqual([]);
    const hits = await searchStaged(staged.list(), "tooth doctor", 5, { embed });
    expect(hits.map((h) => [h.memory.id, h.mode])).toEqual([["m2", "meaning"]]);
    expect(hits[0].score).toBeGreaterThan(0.9);
    expect(embedded).toContain("The dentist appointment is on Friday at nine.");
  });

  it("by meaning with the word embedder the index tests use", async () => {
    const embedder = new WordEmbedder();
    const hits = await searchStaged(staged.list(), "appointment dentist", 5, { embed: embedder.embed, minCosine: 0.5 });
    expect(hits[0].memory.id).toBe("m2");
  });
});

describe("the prefetch with staged facts", () => {
  it("puts matching staged facts first, then the vault's notes, within the budget", async () => {
    const staged = new StagedMemories();
    staged.stage({ content: "Invoices for Cobalt go out as PDF files." });
    const search: MemorySearch = { textSearch: async () => [{ path: "Projects/Cobalt.md", score: 1, snippet: "Cobalt invoices were late in March." }], semanticSearch: null };
    const result = await prefetchWithStaged(search, staged.list(), "cobalt invoices", { tokenBudget: 400 });
    const lines = result.text.split("\n");
    expect(lines[0]).toMatch(/^Facts the user asked you to remember in this conversation/);
    expect(lines[1]).toBe("- Invoices for Cobalt go out as PDF files.");
    expect(lines[2]).toMatch(/^Notes from the vault/);
    expect(lines[3]).toContain("[[Projects/Cobalt]]");
    expect(result.staged).toEqual(["m1"]);
    const tight = await prefetchWithStaged(undefined, staged.list(), "cobalt invoices", { tokenBudget: 5 });
    expect(tight.text).toBe("");
  });
});

describe("contradicts, as defined in staging-conflicts.ts", () => {
  it("same subject with a different value contradicts", () => {
    expect(compareMemory({ content: "Tom's phone number is 555-0199." }, kept("Memory/2026-01-02 Tom phone.md", "Tom's phone number is 555-0101."))?.kind).toBe("contradicts");
    expect(compareMemory({ content: "I prefer invoices as Word documents." }, kept("Memory/2026-01-02 Invoices.md", "I prefer invoices as PDF."))?.kind).toBe("contradicts");
  });

  it("the same title with different words contradicts; the same words again is a duplicate", () => {
    expect(compareMemory({ content: "Ship on Thursdays.", title: "Release day" }, kept("Memory/2026-01-02 Release day.md", "Releases go out on Monday."))).toMatchObject({ kind: "contradicts", reason: "same title" });
    expect(compareMemory({ content: "I prefer invoices as PDF." }, kept("Memory/2026-01-02 Invoices.md", "I prefer invoices as PDF."))?.kind).toBe("duplicate");
  });

  it("an addition or an unrelated fact is no contradiction", () => {
    expect(compareMemory({ content: "I prefer invoices as PDF with a cover page." }, kept("Memory/x.md", "I prefer invoices as PDF."))).toBeNull();
    expect(compareMemory({ content: "The wifi password is on the fridge." }, kept("Memory/x.md", "I prefer invoices as PDF."))).toBeNull();
  });

  it("pairs each staged fact with what it contradicts, contradictions first", () => {
    const staged = new StagedMemories();
    staged.stage({ content: "I prefer invoices as Word documents." });
    staged.stage({ content: "The plants need water on Sunday." });
    const found = findConflicts(staged.list(), [kept("Memory/2026-01-01 A.md", "I prefer invoices as PDF."), kept("Memory/2026-01-02 B.md", "Cats like fish.")]);
    expect([...found.keys()]).toEqual(["m1"]);
    expect(found.get("m1")![0]).toMatchObject({ kind: "contradicts", kept: { path: "Memory/2026-01-01 A.md", title: "A" } });
  });
});

describe("dropping takes the fact out of the history", () => {
  it("replaces it in calls, raw replies, results and turn blocks, and leaves the user's message", () => {
    const conversation = new Conversation();
    const fact = 'Keys are "under" the mat.';
    conversation.append({ kind: "user", turnId: "t1", at: 1, content: "remember where the keys are" });
    const envelope = { thought: "Saving.", status: "Task" as const, message_to_user: null, tool_calls: [{ name: "memory:save", args: { content: fact, title: "Keys" } }] };
    conversation.append({ kind: "assistant", turnId: "t1", at: 2, envelope, text: JSON.stringify(envelope) });
    conversation.append({ kind: "tool-results", turnId: "t1", at: 3, results: [{ callId: "r0c0", name: "memory:save", ok: true, content: `Staged to remember: "${fact}"` }] });
    conversation.append({ kind: "user", turnId: "t2", at: 4, content: "where are the keys?", turnBlock: `Relevant notes from memory:\n- ${fact}` });
    const { memory } = conversation.staged.stage({ content: fact, title: "Keys" });
    redactDropped(conversation, conversation.staged.remove([memory.id]));
    const text = JSON.stringify(conversation.toJSON());
    expect(text).not.toContain("under");
    expect(text).not.toContain('"Keys"');
    // The call's content and title, both again in the raw reply, the result and the later turn block.
    expect(text.split(DROPPED_TEXT).length - 1).toBe(6);
    expect(text).toContain("remember where the keys are");
  });
});
