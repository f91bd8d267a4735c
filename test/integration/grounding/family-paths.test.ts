/**
 * The grounded grammar on real vocabularies, through the host's own walker and masks: every path of a small vault
 * can be produced, token by token, by what the masks admit. On the 3-note bench vault the llama3.2 and lfm2 family
 * models (random weights) named the note in context in 1 and 0 of ~1,100 calls, where phi3.5 and gemma4 mostly did;
 * the cause was the weights (the tokens that begin `People/` hold under 5% of the masked odds, and top-p 0.95 cuts
 * them), not the masks, and these tests keep it so: at the start of a path the exact mask lifts every token of the
 * vocabulary that the grounded grammar admits there and no other, and a walk over the masks' tokens alone reaches
 * every spelling of every path, and every heading of the note in context.
 */
import { getLlama, type LlamaModel, type Token } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SubsetCache } from "../../../src/core/grammar";
import type { WalkPosition } from "../../../src/core/grammar/gbnf-walker";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { clampTools } from "../../../src/app/clamp-schema";
import { TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../../../src/node/compose";
import type { FamilyId } from "../../../src/node/test-model/families";
import { createToolCatalog } from "../../../src/tools";
import { ToolRegistry } from "../../../src/tools/registry";
import { GrammarWalkers, type GrammarWalking } from "../../../src/host/grammar-walkers";
import { loadLlamaRuntime } from "../../../src/host/llama-runtime";
import { TokenTexts } from "../../../src/host/token-texts";
import { UTF8_BOUNDARY } from "../../../src/host/utf8-state";
import { Utf8TokenGuard } from "../../../src/host/utf8-token-guard";
import { familyModelPath } from "../../helpers/test-model";

/** The two byte-level vocabularies the bench saw never name the note in context (128k and 65k tokens). */
const FAMILIES: FamilyId[] = ["llama3.2", "lfm2"];
/** The bench's 3-note vault after its create and rename (`bench grounding --notes 3`). */
const PATHS = ["Daily/2020-01-01 0.md", "People/Dana Jansen 1.md", "Daily/A new note from the bench.md", "Areas/Vorupebri server samorzenda budget 2 (renamed).md"];
const NOTE = {
  path: "People/Dana Jansen 1.md",
  text: "# Dana Jansen 1\n\n## Satan decision review\nOffline voru vector draft. See [[Vorupebri server samorzenda budget 2]].\n",
  headings: ["Dana Jansen 1", "Satan decision review"],
};
/** Every spelling the grammar admits: each note with and without `.md`. */
const SPELLINGS = PATHS.flatMap((p) => [p, p.slice(0, -3)]).sort();

const call = (json: string) => `{"thought":"hi","status":"Task","message_to_user":null,"tool_calls":[${json}`;

/** The lifted tokens of a bias (the mask's admitted tokens; bans are below zero). */
function lifted(bias: unknown): Token[] {
  return [...(bias as { _biases: Iterable<[Token, number]> })._biases].filter(([, v]) => v > 0).map(([t]) => t);
}

describe.each(FAMILIES)("grounded paths on the %s vocabulary", (family) => {
  let model: LlamaModel;
  let walking: GrammarWalking;
  let texts: TokenTexts;
  let banned: Set<Token>;
  beforeAll(async () => {
    await loadLlamaRuntime();
    const llama = await getLlama({ gpu: false, build: "never" });
    model = await llama.loadModel({ modelPath: familyModelPath(family) });
    const registry = new ToolRegistry(createToolCatalog());
    const cache = new SubsetCache(clampTools(registry.grammarTools(), TEST_MODEL_CLAMP), TEST_MODEL_GRAMMAR);
    const index = new VaultPathIndex();
    index.load(PATHS);
    cache.setVaultPaths(index);
    const { gbnf } = cache.get(["vault:read", "vault:edit"], "dynamic", { notes: [NOTE] });
    // The host's own base bias (the UTF-8 guard's bans at a character boundary) and walker cache.
    const base = Utf8TokenGuard.for(model).bias(UTF8_BOUNDARY);
    banned = new Set([...(base as unknown as { _biases: Map<Token, number> })._biases.keys()]);
    walking = new GrammarWalkers(model).get(gbnf, base)!;
    expect(walking.looseGrammar).toBeDefined();
    texts = TokenTexts.of(model);
  }, 120_000);
  afterAll(async () => {
    await model?.dispose();
  });

  /** The mask the generator applies at this position: the exact mask inside the vault's rules, else a small choice's. */
  function maskAt(pos: WalkPosition): Token[] {
    const bias = walking.walker.marked(pos) ? walking.masks.exact(pos) : walking.masks.at(pos);
    expect(bias).toBeTruthy();
    return lifted(bias);
  }

  /**
   * The string values reachable from `prefix` (which ends just before a string's opening quote, or just after it) by
   * sampling only tokens the masks lift, each of which the grounded grammar must admit: a walk over the distinct texts
   * produced.
   */
  function reachable(prefix: string): string[] {
    const { walker } = walking;
    const start = walker.advance(walker.start(), prefix)!;
    expect(start).not.toBeNull();
    const from = prefix.endsWith('"') ? 0 : 1;
    const values = new Set<string>();
    const seen = new Set<string>([""]);
    const queue = [""];
    while (queue.length) {
      const text = queue.shift()!;
      const close = text.indexOf('"', from);
      if (close >= from) {
        values.add(text.slice(from, close));
        continue;
      }
      const pos = walker.advance(start, text)!;
      for (const t of maskAt(pos)) {
        const next = text + texts.texts[t]!;
        expect(walker.advance(start, next), `${JSON.stringify(next)} lifted but refused`).not.toBeNull();
        if (!seen.has(next)) {
          seen.add(next);
          queue.push(next);
        }
      }
      expect(seen.size, "the walk stays within the vault's few names").toBeLessThan(5000);
    }
    return [...values].sort();
  }

  it("lifts, at the start of a path, every token of the vocabulary the grounded grammar admits there and no other", () => {
    const { walker } = walking;
    for (const prefix of [call('{"name":"vault:read","args":{"path":"'), call('{"name":"vault:edit","args":{"path":"'), call('{"name":"vault:read","args":{"path":"Daily/')]) {
      const pos = walker.advance(walker.start(), prefix)!;
      expect(walker.marked(pos), prefix).toBe(true);
      const admitted: Token[] = [];
      texts.texts.forEach((text, id) => {
        if (text !== null && !banned.has(id as Token) && walker.advance(pos, text) !== null) admitted.push(id as Token);
      });
      expect(lifted(walking.masks.exact(pos)).sort((a, b) => a - b), prefix).toEqual(admitted.sort((a, b) => a - b));
    }
    // Each first character of the vault's names, the note in context's `P` among them, begins some admitted token.
    const root = walker.advance(walker.start(), call('{"name":"vault:read","args":{"path":"'))!;
    const firsts = new Set(lifted(walking.masks.exact(root)).map((t) => texts.texts[t]![0]));
    expect([...firsts].sort()).toEqual(["A", "D", "P"]);
  });

  it("reaches every spelling of every path of the vault, the note in context's included, through the masks alone", () => {
    for (const tool of ["vault:read", "vault:edit"]) {
      // From before the opening quote (tokens such as `"P` lead in) and from after it (the quote forced on its own).
      expect(reachable(call(`{"name":"${tool}","args":{"path":`)), tool).toEqual(SPELLINGS);
      expect(reachable(call(`{"name":"${tool}","args":{"path":"`)), tool).toEqual(SPELLINGS);
    }
  });

  it("reaches every heading of the note in context once its path is named", () => {
    expect(reachable(call(`{"name":"vault:read","args":{"path":"${NOTE.path}","heading":`))).toEqual([...NOTE.headings].sort());
  });
});
