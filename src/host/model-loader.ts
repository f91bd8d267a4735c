/**
 * Loads a GGUF with node-llama-cpp after checking, in order, everything that can be wrong with it —
 * missing, not a GGUF, truncated, an architecture llama.cpp does not know, too large for free
 * memory — so each failure is one sentence naming the file and what to do, and the host lives on.
 */
import type { Llama, LlamaModel } from "node-llama-cpp";
import { EngineError, type ModelInfo } from "../core/ports/engine";
import { readGgufInfo } from "../engine/gguf/read-gguf-info";
import type { LlamaLogTail } from "./llama-log";
import { llamaRuntime } from "./llama-runtime";

let knownArchitectures: Set<string> | null = null;
/** Architectures this node-llama-cpp's llama.cpp knows (its `GgufArchitectureType`, a runtime object despite its const-enum typing). */
function isKnownArchitecture(architecture: string): boolean {
  knownArchitectures ??= new Set<string>(
    Object.values((llamaRuntime() as unknown as { GgufArchitectureType: Record<string, string> }).GgufArchitectureType),
  );
  return knownArchitectures.has(architecture);
}

const gb = (bytes: number): string => (bytes / 1024 ** 3).toFixed(1);

/** Checks the file without loading it; resolves with its header facts. */
export async function checkModelFile(llama: Llama, path: string, gpuLayers: number | undefined): Promise<ModelInfo> {
  const info = await readGgufInfo(path);
  if (!isKnownArchitecture(info.architecture)) {
    throw new EngineError(
      `The model file ${path} uses the "${info.architecture}" architecture, which this llama.cpp cannot run; choose a model with a supported architecture (such as llama, qwen2, gemma or phi3).`,
      "unsupported_architecture",
    );
  }
  const { GgufInsights, readGgufFileInfo } = llamaRuntime();
  const insights = await GgufInsights.from(await readGgufFileInfo(path), llama);
  const offloaded = llama.gpu === false ? 0 : (gpuLayers ?? insights.totalLayers);
  const needed = await insights.estimateModelResourceRequirementsV2({ gpuLayers: offloaded });
  const ram = await llama.getRamState();
  const vram = llama.gpu === false ? { free: 0, unifiedSize: 0 } : await llama.getVramState();
  // On unified memory (Apple silicon) RAM and VRAM are the same bytes: count them once.
  const available = vram.unifiedSize > 0 ? Math.max(ram.free, vram.free) : ram.free + vram.free;
  const total = needed.cpuRam + needed.gpuVram;
  if (total > available) {
    throw new EngineError(
      `The model file ${path} needs about ${gb(total)} GB of memory but only ${gb(available)} GB is free; close other programs or choose a smaller (more quantized) model.`,
      "too_large",
    );
  }
  return info;
}

/** Loads the model, translating llama.cpp's failures into EngineErrors. */
export async function loadCheckedModel(
  llama: Llama,
  path: string,
  gpuLayers: number | undefined,
  log: LlamaLogTail,
  onProgress: (progress: number) => void,
): Promise<LlamaModel> {
  const mark = log.mark();
  try {
    return await llama.loadModel({ modelPath: path, gpuLayers: gpuLayers ?? "auto", onLoadProgress: onProgress });
  } catch (err) {
    if (err instanceof llamaRuntime().InsufficientMemoryError) {
      throw new EngineError(`The model file ${path} does not fit in free memory (${err.message}); close other programs or choose a smaller model.`, "too_large");
    }
    const detail = log.errorsSince(mark).pop() ?? (err instanceof Error ? err.message : String(err));
    throw new EngineError(`llama.cpp could not load the model file ${path} (${detail}); the file may be damaged — download it again or choose another model.`, "internal");
  }
}
