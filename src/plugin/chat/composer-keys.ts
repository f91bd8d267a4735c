/** What a key press in the chat input does: Enter sends, Shift+Enter (or Enter while composing with an IME) types. */
export type ComposerAction = "send" | "type";

export function composerKey(evt: Pick<KeyboardEvent, "key" | "shiftKey" | "isComposing" | "altKey" | "ctrlKey" | "metaKey">): ComposerAction {
  if (evt.key !== "Enter" || evt.isComposing) return "type";
  if (evt.shiftKey || evt.altKey) return "type";
  return "send";
}
