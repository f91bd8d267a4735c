/** The hybrid tool router. */
export { ToolRouter, DEFAULT_ROUTER_OPTIONS } from "./tool-router";
export type { RouterOptions } from "./tool-router";
export { NoteNames } from "./note-names";
export { EmbeddingScorer } from "./embedding-scorer";
export type { Embedder } from "./embedding-scorer";
export { toolCard, cardText } from "./tool-card";
export type { ToolCard } from "./tool-card";
