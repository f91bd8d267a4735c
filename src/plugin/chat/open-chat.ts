/** Finds the chat pane in the right sidebar, or opens it there, and brings it to the front. */
import type { Workspace, WorkspaceLeaf } from "obsidian";
import { CHAT_VIEW_TYPE, ChatView } from "./chat-view";

export async function openChat(workspace: Workspace): Promise<ChatView | null> {
  let leaf: WorkspaceLeaf | null = workspace.getLeavesOfType(CHAT_VIEW_TYPE)[0] ?? null;
  if (!leaf) {
    leaf = workspace.getRightLeaf(false);
    if (!leaf) return null;
    await leaf.setViewState({ type: CHAT_VIEW_TYPE, active: true });
  }
  await workspace.revealLeaf(leaf);
  const view = leaf.view;
  if (view instanceof ChatView) {
    view.focusInput();
    return view;
  }
  return null;
}
