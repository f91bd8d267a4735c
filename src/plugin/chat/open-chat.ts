/**
 * Finds the chat pane, or opens it, and brings it to the front: in the right sidebar (a drawer on tablets), or as a
 * main tab where the screen is too narrow for a sidebar (phones).
 */
import type { Workspace, WorkspaceLeaf } from "obsidian";
import { CHAT_VIEW_TYPE, ChatView } from "./chat-view";

/** Where a new chat pane opens. */
export type ChatPlacement = "sidebar" | "tab";

export async function openChat(workspace: Workspace, placement: ChatPlacement = "sidebar"): Promise<ChatView | null> {
  let leaf: WorkspaceLeaf | null = workspace.getLeavesOfType(CHAT_VIEW_TYPE)[0] ?? null;
  if (!leaf) {
    leaf = placement === "tab" ? workspace.getLeaf("tab") : workspace.getRightLeaf(false);
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
