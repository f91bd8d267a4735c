/** GGUF header reading without node-llama-cpp. */
export { readGgufInfo, readGgufHeader } from "./read-gguf-info";
export type { GgufHeader, HeaderTensor, HeaderValue } from "./header-parser";
