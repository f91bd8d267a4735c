/**
 * `readGgufInfo(path)`: model facts from the GGUF header alone, with plain Node fs — no
 * node-llama-cpp — so a settings tab can list models cheaply. Reads only as much of the file as the
 * header needs (doubling the read until it fits).
 */
import { EngineError, type ModelInfo } from "../../core/ports/engine";
import { chatTemplateKind } from "./chat-template-kind";
import { FILE_TYPE_NAMES } from "./format";
import { NotGguf, OutOfBytes, parseGgufHeader, type GgufHeader, type HeaderValue } from "./header-parser";
import { GGML_TYPE_SIZES } from "./type-sizes";
import { nodeModule } from "../node-builtins";

const nodeFsPromises = nodeModule("fsPromises");
const nodePath = nodeModule("path");

const FIRST_READ_BYTES = 1 << 20;
/** No real header is this large (the biggest vocabularies take a few MB); beyond it the file is corrupt. */
const MAX_HEADER_BYTES = 256 << 20;

/** Reads and parses the header of the GGUF at `path`; throws EngineError model_missing / not_gguf / truncated. */
export async function readGgufHeader(path: string): Promise<{ header: GgufHeader; fileSizeBytes: number }> {
  let size: number;
  try {
    const st = await nodeFsPromises.stat(path);
    if (!st.isFile()) throw new EngineError(`The model path ${path} is a folder, not a file; choose a .gguf file.`, "not_gguf");
    size = st.size;
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw new EngineError(`The model file ${path} does not exist; check the path, or download the model again.`, "model_missing");
  }
  if (size === 0) throw new EngineError(`The file ${path} is empty, not a GGUF model; choose a .gguf model file.`, "not_gguf");
  const handle = await nodeFsPromises.open(path, "r");
  try {
    for (let want = Math.min(FIRST_READ_BYTES, size); ; want = Math.min(want * 2, size)) {
      const buf = Buffer.alloc(want);
      const { bytesRead } = await handle.read(buf, 0, want, 0);
      try {
        return { header: parseGgufHeader(buf.subarray(0, bytesRead)), fileSizeBytes: size };
      } catch (err) {
        if (err instanceof NotGguf) {
          throw new EngineError(`The file ${path} is not a usable GGUF model (${err.message}); choose a .gguf model file.`, "not_gguf");
        }
        if (!(err instanceof OutOfBytes)) throw err;
        if (bytesRead >= size) {
          throw new EngineError(`The model file ${path} is truncated (it ends inside its header, at ${size} bytes); download it again.`, "truncated");
        }
        if (want >= MAX_HEADER_BYTES) {
          throw new EngineError(`The file ${path} is not a usable GGUF model (its header is larger than 256 MB); choose a .gguf model file.`, "not_gguf");
        }
      }
    }
  } finally {
    await handle.close();
  }
}

/** Bytes the tensor data needs; undefined when a tensor type is unknown to this reader. */
function requiredFileSize(header: GgufHeader): number | undefined {
  let end = header.dataOffset;
  for (const t of header.tensors) {
    const sizes = GGML_TYPE_SIZES[t.type];
    if (!sizes) return undefined;
    const elements = t.dims.reduce((a, b) => a * b, 1);
    end = Math.max(end, header.dataOffset + t.offset + Math.ceil(elements / sizes.blockSize) * sizes.typeSize);
  }
  return end;
}

function asNumber(v: HeaderValue | undefined): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  return undefined;
}

/** Model facts read from the GGUF header; throws EngineError when the file is missing, not a GGUF, or truncated. */
export async function readGgufInfo(path: string): Promise<ModelInfo> {
  const { header, fileSizeBytes } = await readGgufHeader(path);
  const required = requiredFileSize(header);
  if (required !== undefined && required > fileSizeBytes) {
    throw new EngineError(
      `The model file ${path} is truncated (${fileSizeBytes} of ${required} bytes); download it again.`,
      "truncated",
    );
  }
  const m = header.metadata;
  const architecture = typeof m.get("general.architecture") === "string" ? (m.get("general.architecture") as string) : "unknown";
  const name = m.get("general.name");
  const fileType = asNumber(m.get("general.file_type"));
  const template = m.get("tokenizer.chat_template");
  return {
    path,
    name: typeof name === "string" && name.trim() !== "" ? name : nodePath.basename(path).replace(/\.gguf$/i, ""),
    architecture,
    parameterCount: header.tensors.reduce((sum, t) => sum + t.dims.reduce((a, b) => a * b, 1), 0),
    quantization: fileType === undefined ? undefined : (FILE_TYPE_NAMES[fileType] ?? `type ${fileType}`),
    fileSizeBytes,
    trainedContextLength: asNumber(m.get(`${architecture}.context_length`)),
    embeddingLength: asNumber(m.get(`${architecture}.embedding_length`)),
    hasChatTemplate: typeof template === "string" && template.trim() !== "",
    ...(typeof template === "string" && template.trim() !== ""
      ? (({ kind, thinking }) => ({ chatTemplateKind: kind, thinkingModel: thinking }))(chatTemplateKind(template))
      : {}),
  };
}
