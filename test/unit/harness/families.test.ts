/** test/helpers/families.ts: which families the per-family tests run. */
import { describe, expect, it } from "vitest";
import { FAMILY_IDS } from "../../../src/node/test-model/families";
import { DEFAULT_FAMILIES, testedFamilies } from "../../helpers/families";

describe("the tested families", () => {
  it("are the fast three by default (both tokenizer kinds, a thinking model), and all ten with 'all'", () => {
    // An empty value is "not set" (passing undefined would read this run's own VAULT_AGENT_FAMILIES, which CI sets).
    expect(testedFamilies("")).toEqual(DEFAULT_FAMILIES);
    expect(DEFAULT_FAMILIES).toEqual(["phi3.5", "llama3.2", "qwen3"]);
    expect(testedFamilies("all")).toEqual(FAMILY_IDS);
  });

  it("follow a comma list, and name the unknown ones in one sentence", () => {
    expect(testedFamilies(" gemma2, smollm3 ")).toEqual(["gemma2", "smollm3"]);
    expect(() => testedFamilies("qwen3,gpt5")).toThrow(/unknown families \(gpt5\); use "all" or some of qwen2\.5/);
  });
});
