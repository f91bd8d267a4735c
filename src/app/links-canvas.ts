/**
 * "Make a canvas of this note's links": the canvas:create call for a note's links, and running one tool call the user
 * asked for directly (a command, not the model) through the same gatekeeper checks, journal and handler as a turn.
 */
import { Gatekeeper } from "../core/gatekeeper/gatekeeper";
import { linksCanvasOps } from "../core/canvas/links";
import type { ChangeJournal } from "../core/journal";
import type { VaultPort } from "../core/ports/vault";
import type { ToolCatalog } from "../core/protocol/registry";
import type { ToolContext, ToolResult } from "../core/protocol/tool";
import type { EnvelopeToolCall } from "../core/protocol/envelope";
import { toolsMayName } from "./vault-paths";

/** Most cards on each side: a note with hundreds of links would give a canvas nobody reads. */
const MAX_PER_SIDE = 40;

/** The canvas:create call for a note's outgoing links and backlinks, at a free path beside the note ("Alpha links.canvas"). */
export async function linksCanvasCall(vault: VaultPort, path: string, ctx: Pick<ToolContext, "settings">): Promise<EnvelopeToolCall> {
  const meta = await vault.metadata(path);
  if (!meta) throw new Error(`"${path}" is not a note, so it has no links to draw.`);
  const may = (p: string) => toolsMayName(p, { settings: ctx.settings, vault });
  const outgoing = meta.links.map((l) => l.resolved).filter((p): p is string => p !== null && may(p));
  const backlinks = (await vault.backlinks(path)).filter(may);
  const stem = path.replace(/\.md$/, "");
  let target = `${stem} links.canvas`;
  for (let i = 2; await vault.exists(target); i++) target = `${stem} links ${i}.canvas`;
  return { name: "canvas:create", args: { path: target, ops: linksCanvasOps(path, outgoing.slice(0, MAX_PER_SIDE), backlinks.slice(0, MAX_PER_SIDE)) } };
}

/** What a direct call needs: the agent's catalog and tool context, and its journal so "Undo" takes the change back. */
export interface DirectCallDeps {
  tools: ToolCatalog;
  toolContext: ToolContext;
  journal?: ChangeJournal;
}

/**
 * Runs one call the user asked for by a command: checked and authorized by the gatekeeper (the command is the user's
 * own request, so the tool context's user port decides the confirmation), journaled as a turn of its own, then run.
 */
export async function runDirectCall(deps: DirectCallDeps, call: EnvelopeToolCall, turnId = `cmd-${Date.now().toString(36)}`): Promise<ToolResult> {
  const gatekeeper = new Gatekeeper(deps.tools, deps.toolContext);
  const checked = gatekeeper.check(call, { state: "Task", offered: new Set([call.name]) });
  await gatekeeper.authorize(checked, deps.toolContext, { writes: "confirm", writesOffHint: "", alwaysAllowed: new Set() });
  const vault = deps.journal ? deps.journal.vaultFor(deps.toolContext.vault, { turnId, callId: "c0", tool: call.name }) : deps.toolContext.vault;
  return checked.tool.definition.handler(checked.args, { ...deps.toolContext, vault });
}
