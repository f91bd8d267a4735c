/** The server engine for a configuration. */
import { LlamaServerEngine } from "./llama-server-engine";
import type { LlamaServerEngineOptions } from "./server-opening";
import { OpenAICompatibleEngine } from "./openai-engine";
import type { ServerEngineConfig } from "./server-config";

export type ServerEngine = LlamaServerEngine | OpenAICompatibleEngine;

export function createServerEngine(config: ServerEngineConfig, options: LlamaServerEngineOptions = {}): ServerEngine {
  return config.kind === "llama-server" ? new LlamaServerEngine(config, options) : new OpenAICompatibleEngine(config, options);
}
