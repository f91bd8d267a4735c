/** Engines on another machine: llama.cpp's server (GBNF) and OpenAI-compatible servers (JSON Schema). */
export { LlamaServerEngine } from "./llama-server-engine";
export { OpenAICompatibleEngine } from "./openai-engine";
export { normalizeServerUrl, serverLabel, type ServerEngineConfig, type ServerKind, type ServerProbe } from "./server-config";
export { createServerEngine, type ServerEngine } from "./create-server-engine";
export { AutoTransport, describeTransport, fetchTransport, requestUrlTransport, type HttpTransport, type RequestUrlFunction } from "./http-transport";
