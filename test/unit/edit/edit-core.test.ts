import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, GrammarSampler } from "../../../src/core/grammar";
import {
  applyChanges,
  changesBetween,
  compileEditGrammar,
  droppedSentence,
  partialReply,
  proposalFromReply,
  rebaseChanges,
  RecentInstructions,
  sectionAt,
  sectionByHeading,
  splitUnits,
  textMapping,
  wordDiff,
} from "../../../src/core/edit";

const NOTE = [
  "---",
  "tags: [garden]",
  "---",
  "# Garden",
  "",
  "The tomatos are planted in bed one. They need water every day! Is the soil too dry?",
  "",
  "## Tasks",
  "- buy \"good\" compost",
  "- weed the\tbeans",
  "",
  "## Notes",
  "Café au lait 🌱 after work.",
  "",
].join("\n");

describe("units", () => {
  it("splits a region into its sentences and lines, with their places", () => {
    const region = "One. Two words!  Three?\n\n- four\n  five";
    const units = splitUnits(region);
    expect(units.map((u) => u.text)).toEqual(["One.", "Two words!", "Three?", "- four", "five"]);
    for (const u of units) expect(region.slice(u.from, u.to)).toBe(u.text);
  });

  it("cuts a unit longer than the bound at a space", () => {
    const long = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    const units = splitUnits(long);
    expect(units.length).toBeGreaterThan(1);
    expect(units.every((u) => u.text.length <= 400)).toBe(true);
    expect(units.map((u) => u.text).join(" ")).toBe(long);
  });
});

describe("edit grammar", () => {
  const region = NOTE.slice(NOTE.indexOf("The tomatos"), NOTE.indexOf("## Notes"));
  const units = splitUnits(region);
  const grammar = compileEditGrammar(region, units);
  const recognizer = new GbnfRecognizer(grammar.gbnf);
  const edit = (find: string, replace: string) => ({ find, replace });

  it("accepts edits that quote the region's sentences in order, and a rewrite", () => {
    expect(recognizer.accepts(JSON.stringify({ edits: [edit("The tomatos are planted in bed one.", "The tomatoes are planted in bed one.")] }))).toBe(true);
    expect(recognizer.accepts(JSON.stringify({ edits: [edit("They need water every day!", "They need water."), edit('- buy "good" compost', "- buy compost"), edit("- weed the\tbeans", "")] }))).toBe(true);
    expect(recognizer.accepts(JSON.stringify({ edits: [] }))).toBe(true);
    expect(recognizer.accepts(JSON.stringify({ rewrite: "Anything at all." }))).toBe(true);
  });

  it("refuses a quote that is not a sentence of the region, or only a part of one", () => {
    expect(recognizer.accepts(JSON.stringify({ edits: [edit("The potatoes are planted.", "x")] }))).toBe(false);
    expect(recognizer.accepts(JSON.stringify({ edits: [edit("tomatos", "tomatoes")] }))).toBe(false);
    expect(recognizer.accepts(JSON.stringify({ edits: [edit("Café au lait 🌱 after work.", "x")] }))).toBe(false);
    expect(recognizer.accepts(JSON.stringify({ edits: [edit("The tomatos are planted in bed one", "x")] }))).toBe(false);
  });

  it("places quotes given out of order, and a sentence quoted twice takes the later replacement", () => {
    const target = { note: NOTE, from: NOTE.indexOf("The tomatos"), to: NOTE.indexOf("## Notes") };
    const reply = JSON.stringify({ edits: [edit("## Tasks", "## To do"), edit("The tomatos are planted in bed one.", "The tomatoes are planted."), edit("## Tasks", "## Jobs")] });
    expect(recognizer.accepts(reply)).toBe(true);
    const proposal = proposalFromReply(target, reply);
    expect(applyChanges(NOTE, proposal.changes, "all")).toBe(NOTE.replace("The tomatos are planted in bed one.", "The tomatoes are planted.").replace("## Tasks", "## Jobs"));
  });

  it("a sentence that occurs twice can be edited at each place", () => {
    const region = "Water daily. Check the beds. Water daily.";
    const u = splitUnits(region);
    const reply = JSON.stringify({ edits: [edit("Water daily.", "Water at dawn."), edit("Water daily.", "Water at dusk.")] });
    expect(new GbnfRecognizer(compileEditGrammar(region, u).gbnf).accepts(reply)).toBe(true);
    expect(proposalFromReply({ note: region, from: 0, to: region.length }, reply).proposed).toBe("Water at dawn. Check the beds. Water at dusk.");
  });

  it("grows linearly with the region", () => {
    const sentence = (i: number) => `Sentence number ${i} says something about the garden.`;
    const small = Array.from({ length: 100 }, (_, i) => sentence(i)).join(" ");
    const large = Array.from({ length: 1000 }, (_, i) => sentence(i)).join(" ");
    const a = compileEditGrammar(small, splitUnits(small)).gbnf.length;
    const b = compileEditGrammar(large, splitUnits(large)).gbnf.length;
    expect(b / a).toBeGreaterThan(5);
    expect(b / a).toBeLessThan(12);
    expect(b).toBeLessThan(large.length + 1000 * 40);
  });

  it("says the same as a JSON Schema for engines that constrain through a server: find is one of the sentences", () => {
    const schema = grammar.jsonSchema as { anyOf: { properties: { edits?: { items: { properties: { find: { enum: string[] } } } } } }[] };
    expect(schema.anyOf[0].properties.edits!.items.properties.find.enum).toEqual([...new Set(units.map((u) => u.text))]);
    expect(schema.anyOf).toHaveLength(2);
  });

  it("refuses a region over the size limit with a sentence", () => {
    const huge = "word ".repeat(13_000);
    expect(() => compileEditGrammar(huge, splitUnits(huge))).toThrow(/select a part of it/);
  });

  it("every one of 1,000 random texts of the grammar is a proposal that applies", () => {
    const sampler = new GrammarSampler(grammar.gbnf, { random: seeded(37) });
    const target = { note: NOTE, from: NOTE.indexOf("The tomatos"), to: NOTE.indexOf("## Notes") };
    let changes = 0;
    for (let i = 0; i < 1000; i++) {
      const reply = sampler.sample();
      const proposal = proposalFromReply(target, reply, units);
      changes += proposal.changes.length;
      const note = applyChanges(NOTE, proposal.changes, "all");
      expect(note).toBe(NOTE.slice(0, target.from) + proposal.proposed + NOTE.slice(target.to));
    }
    expect(changes).toBeGreaterThan(500);
  });
});

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("word diff", () => {
  it("finds the changed words and joins neighbours separated by a space", () => {
    const a = "The quick brown fox jumps over the lazy dog.";
    const b = "The slow red fox jumps over the dog!";
    const hunks = wordDiff(a, b).map((h) => [a.slice(h.fromA, h.toA), b.slice(h.fromB, h.toB)]);
    expect(hunks).toEqual([
      ["quick brown", "slow red"],
      ["lazy ", ""],
      [".", "!"],
    ]);
  });

  it("gives one change where a slid insertion meets another (a counterexample the property found)", () => {
    const changes = changesBetween({ note: "\na", from: 0, to: 2 }, "a\nCafé\na ");
    expect(changes.map((c) => [c.from, c.to, c.insert])).toEqual([
      [0, 0, "a\nCafé"],
      [2, 2, " "],
    ]);
    expect(applyChanges("\na", changes, "all")).toBe("a\nCafé\na ");
  });

  it("turns any text into any other (property)", () => {
    const word = fc.constantFrom("a", "b", "tomato", "Café", "🌱", " ", "\n", ".", "  ", "x y");
    fc.assert(
      fc.property(fc.array(word, { maxLength: 30 }), fc.array(word, { maxLength: 30 }), (wa, wb) => {
        const a = wa.join("");
        const b = wb.join("");
        const changes = changesBetween({ note: a, from: 0, to: a.length }, b);
        expect(applyChanges(a, changes, "all")).toBe(b);
        for (let i = 1; i < changes.length; i++) expect(changes[i].from).toBeGreaterThanOrEqual(changes[i - 1].to);
      }),
      { numRuns: 500 },
    );
  });

  it("diffs a 5,000-word note in well under 50 ms, even rewritten throughout", () => {
    const words = Array.from({ length: 5000 }, (_, i) => (i % 13 === 0 ? "\n" : "") + ["garden", "tomato", "water", "soil", "bed", "compost"][i % 6] + i);
    const a = words.join(" ");
    const edited = words.map((w, i) => (i % 50 === 7 ? `${w}x` : w)).join(" ");
    const rewritten = words.map((w, i) => (i % 2 === 0 ? w.toUpperCase() : w)).join(" ");
    for (const b of [edited, rewritten]) {
      wordDiff(a, b);
      const started = performance.now();
      const changes = changesBetween({ note: a, from: 0, to: a.length }, b);
      const ms = performance.now() - started;
      expect(applyChanges(a, changes, "all")).toBe(b);
      expect(ms).toBeLessThan(50);
    }
  });
});

describe("proposals and choosing changes", () => {
  const from = NOTE.indexOf("The tomatos");
  const to = NOTE.indexOf("## Notes");
  const target = { note: NOTE, from, to };
  const reply = JSON.stringify({
    edits: [
      { find: "The tomatos are planted in bed one.", replace: "The tomatoes are planted in bed one." },
      { find: "Is the soil too dry?", replace: "Is the soil dry?" },
      { find: '- buy "good" compost', replace: '- buy "good" compost and mulch' },
    ],
  });

  it("accepting one of three changes gives exactly the expected bytes; rejecting all leaves the note as it was", () => {
    const proposal = proposalFromReply(target, reply);
    expect(proposal.changes.map((c) => [c.deleted, c.insert])).toEqual([
      ["tomatos", "tomatoes"],
      ["too ", ""],
      ["", " and mulch"],
    ]);
    expect(applyChanges(NOTE, proposal.changes, new Set([2]))).toBe(NOTE.replace("Is the soil too dry?", "Is the soil dry?"));
    expect(applyChanges(NOTE, proposal.changes, new Set())).toBe(NOTE);
    expect(applyChanges(NOTE, proposal.changes, "all")).toBe(NOTE.replace("tomatos", "tomatoes").replace("soil too dry", "soil dry").replace('"good" compost', '"good" compost and mulch'));
  });

  it("a rewrite becomes word-level changes too", () => {
    const proposal = proposalFromReply(target, JSON.stringify({ rewrite: NOTE.slice(from, to).replace("every day", "twice a day") }));
    expect(proposal.changes.map((c) => [c.deleted, c.insert])).toEqual([["every", "twice a"]]);
  });

  it("a reply made without the grammar that quotes missing text is refused with a sentence", () => {
    expect(() => proposalFromReply(target, JSON.stringify({ edits: [{ find: "Nothing like this.", replace: "x" }] }))).toThrow(/is not a sentence or line of the text to edit/);
    expect(() => proposalFromReply(target, '{"edits":[{"find":')).toThrow(/not complete JSON/);
  });

  it("reads a streaming reply: the edits completed so far, or the rewrite so far", () => {
    const cut = reply.indexOf('{"find":"Is the soil');
    expect(partialReply(reply.slice(0, cut + 10))?.reply).toEqual({ edits: [{ find: "The tomatos are planted in bed one.", replace: "The tomatoes are planted in bed one." }] });
    expect(partialReply('{"edits":[')?.reply).toEqual({ edits: [] });
    expect(partialReply('{"rewrite":"Hello \\"wor')?.reply).toEqual({ rewrite: 'Hello "wor' });
    expect(partialReply('{"rewrite":"Hello \\')?.reply).toEqual({ rewrite: "Hello " });
  });
});

describe("rebasing when the note changes", () => {
  const from = NOTE.indexOf("The tomatos");
  const to = NOTE.indexOf("## Notes");
  const proposal = proposalFromReply(
    { note: NOTE, from, to },
    JSON.stringify({ edits: [{ find: "The tomatos are planted in bed one.", replace: "The tomatoes are planted in bed one." }, { find: "Is the soil too dry?", replace: "Is the soil dry?" }] }),
  );

  it("keeps changes the edit did not touch, at their new places, and drops the touched ones with one sentence", () => {
    const typed = NOTE.replace("# Garden", "# My garden").replace("too dry", "so dry");
    const { kept, dropped } = rebaseChanges(proposal.changes, textMapping(NOTE, typed));
    expect(kept.map((c) => c.insert)).toEqual(["tomatoes"]);
    expect(dropped.map((c) => c.deleted.trim())).toEqual(["too"]);
    expect(applyChanges(typed, kept, "all")).toBe(typed.replace("tomatos", "tomatoes"));
    expect(droppedSentence(dropped.length, kept.length)).toBe("1 proposed change no longer applies because the text under it changed, so it was dropped; 1 is still proposed.");
    expect(droppedSentence(0, 2)).toBeNull();
  });
});

describe("sections", () => {
  it("finds the section under an offset, by heading, and the part before the first heading", () => {
    const s = sectionAt(NOTE, NOTE.indexOf("weed"));
    expect(s.heading).toBe("Tasks");
    expect(NOTE.slice(s.from, s.to)).toBe('## Tasks\n- buy "good" compost\n- weed the\tbeans');
    const byName = sectionByHeading(NOTE, "notes")!;
    expect(NOTE.slice(byName.from, byName.to)).toBe("## Notes\nCafé au lait 🌱 after work.");
    expect(sectionByHeading(NOTE, "Nope")).toBeNull();
    const intro = sectionAt("---\na: 1\n---\nIntro line.\n\n# H\nBody", 15);
    expect(intro).toEqual({ from: 13, to: 24, heading: null });
  });

  it("ignores heading marks inside code fences", () => {
    const note = "# A\n```\n# not a heading\n```\nafter";
    expect(sectionAt(note, note.indexOf("after")).heading).toBe("A");
  });
});

describe("recent instructions", () => {
  it("keeps the newest first without repeats, bounded", () => {
    const recent = new RecentInstructions(["fix typos"], 3);
    recent.add("shorter");
    recent.add("fix typos");
    expect(recent.add("formal")).toEqual(["formal", "fix typos", "shorter"]);
    expect(recent.add("more")).toEqual(["more", "formal", "fix typos"]);
  });
});
