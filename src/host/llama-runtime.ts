/**
 * node-llama-cpp, loaded on first use of the built-in engine. The host imports it nowhere else as a value, so
 * the host starts (and serves server engines and the indexes) on a machine where it was never installed; a
 * bundled host keeps it external, and a static import would be hoisted to the bundle's top and fail at start.
 */
import type * as NodeLlamaCpp from "node-llama-cpp";
import { EngineError } from "../core/ports/engine";

export type LlamaRuntime = typeof NodeLlamaCpp;

let loading: Promise<LlamaRuntime> | null = null;
let loaded: LlamaRuntime | null = null;

/** Imports node-llama-cpp once; rejects with "runtime_missing" when it is not installed. */
export function loadLlamaRuntime(): Promise<LlamaRuntime> {
  if (!loading) {
    const attempt = import("node-llama-cpp").then(
      (m) => (loaded = m),
      (err: unknown) => {
        if (loading === attempt) loading = null;
        const reason = err instanceof Error ? err.message.split("\n")[0] : String(err);
        throw new EngineError(
          `The built-in engine's runtime (node-llama-cpp) is not installed here (${reason}); install it from the settings, or choose a llama.cpp or OpenAI-compatible server as the engine.`,
          "runtime_missing",
        );
      },
    );
    loading = attempt;
  }
  return loading;
}

/** The loaded module, for code that only runs after `loadLlamaRuntime()` resolved (a model is being loaded or used). */
export function llamaRuntime(): LlamaRuntime {
  if (!loaded) throw new EngineError("The built-in engine was used before its runtime loaded.", "internal");
  return loaded;
}
