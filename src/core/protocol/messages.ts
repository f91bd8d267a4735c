/** The engine port owns the chat message type; protocol code names it from here. */
export type { ChatMessage } from "../ports/engine";
