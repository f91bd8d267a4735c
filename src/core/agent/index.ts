/** The agent's public surface: the Agent, its events, conversations and options. */
export { Agent } from "./agent";
export type { AgentDeps, RunTurnOptions, TurnResult } from "./agent";
export type * from "./events";
export { Conversation, ConversationFormatError } from "./conversation";
export type { ConversationData, ConversationEntry, StoredToolResult } from "./conversation";
export { DEFAULT_AGENT_OPTIONS } from "./options";
export type { AgentOptions } from "./options";
export type { CompiledGrammar, GrammarSource, MemoryPrefetch, RouteDecision, RouterPort, TranscriptSink } from "../ports/agent";
export { parseEnvelope } from "./envelope-parse";
export { EnvelopeStream } from "./envelope-stream";
