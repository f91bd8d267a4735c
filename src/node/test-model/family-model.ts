/**
 * A family test model: our tiny random-weight transformer in the family's released architecture, with
 * every `tokenizer.*` key copied from llama.cpp's vocabulary file of that family (released special
 * tokens restored) and the family's real Jinja chat template. Same family and seed, same bytes.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { encodeGguf, writeGgufFile, type GgufContent, type GgufValue } from "./gguf-writer";
import { readGgufMetadata } from "./gguf-metadata";
import { FAMILIES, type FamilyId, type FamilySpec } from "./families";
import { llamaSourceDir } from "./llama-source";
import { releasedShape, type ModelSize } from "./sizes";
import { hybridMetadata, hybridTensors, isHybridArchitecture, tinyRecurrentShape } from "./hybrid-tensors";
import { architectureMetadata, transformerTensors, type TensorFill, type TestArchitecture, type TestModelShape } from "./tensors";
import { TEST_MODEL_SHAPE } from "./test-model";

/** Token types whose logits are zeroed (never text a reply should sample by chance). */
const QUIET_TYPES = new Set([2, 3, 5]); // unknown, control, unused
/** GGUF token type of a released vocabulary's padding tokens. */
const USER_DEFINED = 4;

export const DEFAULT_FAMILY_SEED = 1;

/** The vocabulary file and template of a family inside llama.cpp's source. */
export function familySourceFiles(spec: FamilySpec, sourceDir = llamaSourceDir()): { vocab: string; template: string } {
  return {
    vocab: join(sourceDir, "models", `ggml-vocab-${spec.vocab}.gguf`),
    template: join(sourceDir, "models", "templates", spec.template),
  };
}

/** The `tokenizer.*` entries of the family's vocabulary, released specials restored, the real template attached. */
export function familyTokenizer(spec: FamilySpec, sourceDir = llamaSourceDir()): Array<[string, GgufValue]> {
  const files = familySourceFiles(spec, sourceDir);
  const source = readGgufMetadata(files.vocab);
  const entries: Array<[string, GgufValue]> = [];
  for (const [key, value] of source) {
    if (!key.startsWith("tokenizer.") || key === "tokenizer.chat_template") continue;
    if (spec.tokenizer === "sentencepiece" && (key === "tokenizer.ggml.merges" || key === "tokenizer.ggml.pre")) continue;
    entries.push([key, value]);
  }
  const get = (key: string) => entries.find(([k]) => k === key);
  const tokens = get("tokenizer.ggml.tokens");
  const types = get("tokenizer.ggml.token_type");
  if (tokens?.[1].type !== "string[]" || types?.[1].type !== "int32[]") throw new Error(`${files.vocab} has no token list.`);
  const texts = [...tokens[1].value];
  const kinds = Int32Array.from(types[1].value);
  for (const [id, text, type] of spec.restore) {
    texts[id] = text;
    kinds[id] = type;
  }
  tokens[1] = { type: "string[]", value: texts };
  types[1] = { type: "int32[]", value: kinds };
  if (spec.tokenizer === "sentencepiece") get("tokenizer.ggml.model")![1] = { type: "string", value: "llama" };
  for (const [name, id] of Object.entries(spec.ids ?? {})) {
    const key = `tokenizer.ggml.${name}`;
    const hit = get(key);
    if (hit) hit[1] = { type: "uint32", value: id };
    else entries.push([key, { type: "uint32", value: id }]);
  }
  if (spec.addBos !== undefined) {
    const value: GgufValue = { type: "bool", value: spec.addBos };
    const hit = get("tokenizer.ggml.add_bos_token");
    if (hit) hit[1] = value;
    else entries.push(["tokenizer.ggml.add_bos_token", value]);
  }
  entries.push(["tokenizer.chat_template", { type: "string", value: readFileSync(files.template, "utf8") }]);
  return entries;
}

/** The shape and fill of a family model at `size`; throws a sentence when the family has no such release. */
function sizedShape(family: FamilyId, size: ModelSize): { shape: TestModelShape; fill: TensorFill; label: string; vocabSize?: number } {
  const arch = FAMILIES[family].architecture;
  if (size === "tiny") {
    // Hybrids get four blocks, so each has recurrent layers and an attention layer as its releases do.
    const shape = isHybridArchitecture(arch) ? { ...TEST_MODEL_SHAPE, blockCount: 4, recurrent: tinyRecurrentShape(arch) } : TEST_MODEL_SHAPE;
    return { shape, fill: {}, label: "" };
  }
  const released = releasedShape(family, size);
  if (typeof released === "string") throw new Error(released);
  const { release, tiedOutput, vocabSize, ...shape } = released;
  return { shape, fill: { repeatRows: true, tiedOutput }, label: ` at ${release}'s dimensions`, vocabSize };
}

/** Released models pad their vocabulary (Qwen3.5 to 248,320): the vocabulary file's own "[PAD<id>]" tokens up to `size`. */
function padVocabulary(tokenizer: Array<[string, GgufValue]>, size: number | undefined): void {
  const tokens = tokenizer.find(([k]) => k === "tokenizer.ggml.tokens")!;
  const types = tokenizer.find(([k]) => k === "tokenizer.ggml.token_type")!;
  const texts = tokens[1].value as string[];
  if (size === undefined || size <= texts.length) return;
  const padded = [...texts];
  for (let id = texts.length; id < size; id++) padded.push(`[PAD${id}]`);
  const kinds = new Int32Array(size);
  kinds.set(types[1].value as Int32Array);
  kinds.fill(USER_DEFINED, texts.length);
  tokens[1] = { type: "string[]", value: padded };
  types[1] = { type: "int32[]", value: kinds };
}

/** `<arch>.*` metadata and the tensors, for an attention or a hybrid architecture. */
function architectureContent(arch: TestArchitecture, shape: TestModelShape, vocabSize: number, seed: number, quiet: number[], fill: TensorFill) {
  if (isHybridArchitecture(arch)) return { metadata: hybridMetadata(arch, shape), tensors: hybridTensors(arch, shape, vocabSize, seed, quiet, fill) };
  return { metadata: architectureMetadata(arch, shape), tensors: transformerTensors(arch, shape, vocabSize, seed, quiet, fill) };
}

/** Metadata and tensors of the family model. */
export function familyModelContent(family: FamilyId, seed = DEFAULT_FAMILY_SEED, sourceDir = llamaSourceDir(), size: ModelSize = "tiny"): GgufContent {
  const spec = FAMILIES[family];
  const { shape, fill, label, vocabSize } = sizedShape(family, size);
  const tokenizer = familyTokenizer(spec, sourceDir);
  padVocabulary(tokenizer, vocabSize);
  const tokens = tokenizer.find(([k]) => k === "tokenizer.ggml.tokens")![1].value as string[];
  const types = tokenizer.find(([k]) => k === "tokenizer.ggml.token_type")![1].value as Int32Array;
  const quiet: number[] = [];
  types.forEach((t, id) => {
    if (QUIET_TYPES.has(t)) quiet.push(id);
  });
  const arch = spec.architecture;
  const content = architectureContent(arch, shape, tokens.length, seed, quiet, fill);
  const str = (value: string): GgufValue => ({ type: "string", value });
  const metadata: Array<[string, GgufValue]> = [
    ["general.architecture", str(arch)],
    ["general.type", str("model")],
    ...Object.entries(spec.general).map(([k, v]): [string, GgufValue] => [`general.${k}`, str(v)]),
    ["general.description", str(`Vault Agent test model: random weights (seed ${seed})${label} with the ${spec.label} tokenizer and chat template`)],
    ["general.file_type", { type: "uint32", value: 1 }],
    ["general.quantization_version", { type: "uint32", value: 2 }],
    ...content.metadata,
    [`${arch}.vocab_size`, { type: "uint32", value: tokens.length }],
    ...tokenizer,
  ];
  return { metadata, tensors: content.tensors };
}

/** Writes the family model to `path` atomically (temp file, then rename). */
export function writeFamilyModel(path: string, family: FamilyId, seed = DEFAULT_FAMILY_SEED, size: ModelSize = "tiny"): string {
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const content = familyModelContent(family, seed, llamaSourceDir(), size);
  // Realistic sizes stream to disk (a gigabyte and more); the tiny model is one buffer, as before.
  if (size === "tiny") writeFileSync(temp, encodeGguf(content));
  else writeGgufFile(temp, content);
  renameSync(temp, path);
  return path;
}
