import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chatTemplateKind } from "../../../src/engine/gguf/chat-template-kind";
import { FAMILIES, FAMILY_IDS } from "../../../src/node/test-model/families";
import { llamaSourceDir } from "../../../src/node/test-model/llama-source";

const KINDS = { "qwen2.5": "ChatML", qwen3: "ChatML", "llama3.2": "Llama 3", "phi3.5": "Phi-3", gemma2: "Gemma", gemma4: "Gemma 4", smollm3: "ChatML",
  "qwen3.5": "ChatML", lfm2: "ChatML", granite4h: "Granite" };
const THINKING = new Set(["qwen3", "gemma4", "smollm3", "qwen3.5"]);

describe("chat template kinds", () => {
  it.each(FAMILY_IDS)("recognizes the real %s template and whether it can think", (family) => {
    const template = readFileSync(join(llamaSourceDir(), "models", "templates", FAMILIES[family].template), "utf8");
    expect(chatTemplateKind(template)).toEqual({ kind: KINDS[family], thinking: THINKING.has(family) });
  });

  it("calls an unknown template other", () => {
    expect(chatTemplateKind("{{ messages }}")).toEqual({ kind: "other", thinking: false });
  });
});
