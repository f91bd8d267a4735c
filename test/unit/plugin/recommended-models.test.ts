import { describe, expect, it } from "vitest";
import { describeFamily, modelFamily, TESTED_FAMILIES } from "../../../src/plugin/models/model-family";
import { RECOMMENDED_MODELS } from "../../../src/plugin/models/recommended";
import { FAMILIES, FAMILY_IDS, type FamilyId } from "../../../src/node/test-model/families";
import type { ModelInfo } from "../../../src/core/ports/engine";

describe("recommended models", () => {
  it("lists chat models only of families the test matrix proves, each with its size", () => {
    for (const m of RECOMMENDED_MODELS) {
      expect(m.approxBytes, m.name).toBeGreaterThan(10_000_000);
      if (m.family === null) {
        expect(m.name).toMatch(/embed/i);
        continue;
      }
      expect(FAMILY_IDS).toContain(m.family);
      expect(m.name.toLowerCase().replace(/ /g, "")).toContain(FAMILIES[m.family as FamilyId].label.toLowerCase().replace(/[ -]/g, ""));
    }
  });
});

describe("model family line", () => {
  const info = (architecture: string, chatTemplateKind?: string, thinkingModel = false): ModelInfo => ({
    path: "/m.gguf", name: "m", architecture, fileSizeBytes: 1, hasChatTemplate: !!chatTemplateKind, chatTemplateKind, thinkingModel,
  });

  it("names the family and template, and whether the family is tested", () => {
    expect(describeFamily(info("qwen3", "ChatML", true))).toBe("Qwen3 · ChatML template with thinking · tested family");
    expect(describeFamily(info("llama", "Llama 3"))).toBe("Llama 3 · Llama 3 template · tested family");
    expect(describeFamily(info("gemma3", "Gemma"))).toBe("Gemma 3 · Gemma template · untested family");
    expect(describeFamily(info("llama", "Mistral"))).toBe("Mistral template · untested family");
    expect(describeFamily(info("qwen2"))).toBe("Qwen2.5 · no chat template · tested family");
  });

  it("maps every test family's architecture to a tested family name", () => {
    for (const id of FAMILY_IDS) {
      const kind = id === "llama3.2" ? "Llama 3" : "ChatML";
      expect(TESTED_FAMILIES, id).toContain(modelFamily({ architecture: FAMILIES[id].architecture, chatTemplateKind: kind }));
    }
  });
});
