/** One chat message as the engine formats it with the model's own chat template. */
export interface ChatMessage {
  /** Who speaks. Tool results travel as `user` messages prefixed by the agent, so every chat template accepts them. */
  role: "system" | "user" | "assistant";
  /** Plain text. */
  content: string;
}
