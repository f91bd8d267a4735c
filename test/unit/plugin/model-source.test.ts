import { describe, expect, it } from "vitest";
import { ModelSourceError, parseModelSource } from "../../../src/plugin/download/model-source";

describe("model addresses", () => {
  it("maps an hf: URI to the resolve URL on the main branch", () => {
    expect(parseModelSource("hf:Qwen/Qwen2.5-0.5B-Instruct-GGUF/qwen2.5-0.5b-instruct-q4_k_m.gguf")).toEqual({
      url: "https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf",
      fileName: "qwen2.5-0.5b-instruct-q4_k_m.gguf",
    });
  });

  it("keeps sub-folders and a #branch", () => {
    expect(parseModelSource("hf:org/repo/sub dir/m.gguf#v2").url).toBe("https://huggingface.co/org/repo/resolve/v2/sub%20dir/m.gguf");
  });

  it("accepts an https link to a .gguf file and takes its name", () => {
    expect(parseModelSource(" https://example.org/files/My%20Model.gguf ")).toEqual({
      url: "https://example.org/files/My%20Model.gguf",
      fileName: "My Model.gguf",
    });
  });

  it.each([
    ["hf:owner/repo", /hf:owner\/repo\/file\.gguf/],
    ["hf:owner/repo/readme.md", /hf:owner\/repo\/file\.gguf/],
    ["ftp://example.org/m.gguf", /only http and https/],
    ["https://example.org/model.bin", /does not point to a \.gguf file/],
    ["not a url", /paste an hf:/],
  ])("rejects %s with a sentence saying what to write", (input, message) => {
    expect(() => parseModelSource(input)).toThrow(ModelSourceError);
    expect(() => parseModelSource(input)).toThrow(message);
  });
});
