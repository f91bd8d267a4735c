/**
 * "Make a canvas of this note's links": builds the canvas:create call for the active note and runs it through the
 * gatekeeper and the change journal like a turn's call, so "Undo the agent's last change" removes the canvas. The
 * command is the user's own request, so it does not ask again; the new canvas opens in a new tab.
 */
import type { App } from "obsidian";
import { linksCanvasCall, runDirectCall, type DirectCallDeps } from "../app/links-canvas";
import type { UserPort } from "../core/ports/user";

export interface LinksCanvasDeps {
  app: App;
  /** The agent's catalog, tool context and journal now. */
  direct(): DirectCallDeps;
  /** Called after the change was journaled (the undo command rereads the journal). */
  journaled(): void;
  notice: (message: string) => void;
}

/** The command's action for a note path. */
export function linksCanvasAction(deps: LinksCanvasDeps): (path: string) => Promise<void> {
  return async (path) => {
    const direct = deps.direct();
    // The command itself is the request: approve its own call, and say what happened in a notice.
    const user: UserPort = { confirm: () => Promise.resolve("approve"), notify: deps.notice };
    try {
      const call = await linksCanvasCall(direct.toolContext.vault, path, direct.toolContext);
      const result = await runDirectCall({ ...direct, toolContext: { ...direct.toolContext, user } }, call);
      deps.journaled();
      deps.notice(result.content.split("\n")[0]);
      await deps.app.workspace.openLinkText(String(call.args.path), "", "tab");
    } catch (error) {
      deps.notice(error instanceof Error ? error.message : String(error));
    }
  };
}
