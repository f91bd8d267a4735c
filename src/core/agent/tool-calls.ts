/** Runs one round's tool calls in order: gatekeeper check, authorization (confirmation), handler, result. */
import { ToolRefusal, outboundContext, type CheckedCall } from "../gatekeeper/gatekeeper";
import { clip } from "../text/clip";
import type { EnvelopeToolCall } from "../protocol/envelope";
import type { ToolResultEvent } from "./events";
import type { Recovery } from "./recovery";
import type { RoundCalls } from "./round-calls";
import type { Turn, TurnLoopInput } from "./turn";
import { checkNoteEdit } from "../gatekeeper/grounding-policy";
import { afterNoteCall, callNotePath } from "./grounding-context";

const NOT_RUN = "Not run: the turn was stopped.";

export async function runCalls(input: TurnLoopInput, turn: Turn, recovery: Recovery, round: number, calls: EnvelopeToolCall[]): Promise<RoundCalls> {
  const out: RoundCalls = { results: [], stopped: false, notes: [], empty: 0 };
  const offered = new Set(recovery.names);
  for (let i = 0; i < calls.length; i++) {
    const callId = `r${round}c${i}`;
    if (out.stopped || input.signal?.aborted) {
      out.stopped = true;
      out.results.push({ callId, name: calls[i].name, ok: false, content: NOT_RUN });
      continue;
    }
    await runCall(input, turn, recovery, out, { call: calls[i], calls, callId, offered });
  }
  return out;
}

async function runCall(
  input: TurnLoopInput,
  turn: Turn,
  recovery: Recovery,
  out: RoundCalls,
  { call, calls, callId, offered }: { call: EnvelopeToolCall; calls: EnvelopeToolCall[]; callId: string; offered: Set<string> },
): Promise<void> {
  const { deps, options, signal, gatekeeper, conversation } = input;
  const stop = (): void => {
    out.stopped = true;
    out.results.push({ callId, name: call.name, ok: false, content: NOT_RUN });
  };
  const push = (event: Omit<ToolResultEvent, "type" | "turnId" | "callId" | "name">): void => {
    const full: ToolResultEvent = { type: "tool-result", turnId: turn.id, callId, name: call.name, ...event };
    turn.toolResults.push(full);
    out.results.push({ callId, name: call.name, ok: full.ok, content: full.content });
    turn.emit(full);
  };
  try {
    const checked = gatekeeper.check(call, { state: recovery.state, offered, targets: recovery.targets });
    const repeat = turn.guard.check(call);
    if (repeat?.kind === "end") {
      out.ended ??= { code: "repeated_call", sentence: repeat.sentence };
      push({ ok: false, content: "Not run: the same call a third time.", error: { code: "repeated_call", message: repeat.sentence } });
      return;
    }
    if (repeat) {
      // No second run: the model gets the earlier result back with the correction.
      out.notes.push(repeat.correction);
      if (repeat.empty) out.empty++;
      turn.emit({ type: "error", turnId: turn.id, code: "repeated_call", message: repeat.correction, recoverable: true });
      push({ ok: true, content: repeat.content, args: checked.args, ...(repeat.empty ? { empty: true } : {}) });
      return;
    }
    await checkEditGrounded(input, checked.tool.definition, checked.args);
    await gatekeeper.authorize(checked, deps.toolContext, {
      writes: options.writes,
      writesOffHint: options.writesOffHint,
      alwaysAllowed: conversation.alwaysAllowed,
      // This round's reply and its results so far are not in the conversation yet; the policy sees them too.
      outbound: outboundContext(turn.id, [...conversation.entries, { kind: "assistant", turnId: turn.id, envelope: { tool_calls: calls } }, { kind: "tool-results", turnId: turn.id, results: out.results }], [...offered]),
      onAsk: (request) => turn.emit({ type: "confirm-asked", turnId: turn.id, callId, request }),
      onAnswer: (decision) => turn.emit({ type: "confirm-answered", turnId: turn.id, callId, decision }),
    });
    if (signal?.aborted) return stop();
    // Journaled: every change this call makes to the vault is recorded before it happens, so the turn can be undone.
    const vault = deps.journal ? deps.journal.vaultFor(deps.toolContext.vault, { turnId: turn.id, callId, tool: call.name, conversationId: conversation.id }) : deps.toolContext.vault;
    const staging = conversation.staged.forTurn(turn.id);
    const res = await checked.tool.definition.handler(checked.args, { ...deps.toolContext, vault, signal, staging });
    const content = clip(res.content, options.resultChars, "not shown; ask for less");
    if (recovery.state === "Recover" && res.empty) {
      // Semantic guard: while recovering, "nothing found" means the correction did not work.
      out.failure ??= { code: "empty_result", tool: call.name, sentence: `Tool "${call.name}" found nothing with these arguments; try different arguments.` };
    }
    await afterNoteCall(input, checked.tool.definition, checked.args);
    turn.guard.ran(call, content, !!res.empty);
    if (res.empty) out.empty++;
    push({ ok: true, content, args: checked.args, ...(res.empty ? { empty: true } : {}) });
  } catch (err) {
    if (err instanceof ToolRefusal) {
      if (err.malformed) out.failure ??= { code: err.code, tool: deps.tools.has(call.name) ? call.name : undefined, sentence: err.message };
      push({ ok: false, content: err.message, error: { code: err.code, message: err.message } });
    } else if (signal?.aborted) {
      stop();
    } else {
      const message = err instanceof Error ? err.message : String(err);
      push({ ok: false, content: message, error: { code: "tool_failed", message } });
    }
  }
}

/** With grounding on: an edit of a note the agent has not seen, or with text gone from the note since, is refused. */
async function checkEditGrounded(input: TurnLoopInput, def: CheckedCall["tool"]["definition"], args: Record<string, unknown>): Promise<void> {
  if (!input.deps.vaultPaths || !def.noteArgs?.find) return;
  const path = callNotePath(input, args.path);
  if (!path) return;
  const now = await input.deps.toolContext.vault.read(path).catch(() => null);
  const sentence = checkNoteEdit(def, path, args, input.conversation.notesSeen.get(path), now);
  if (sentence) throw new ToolRefusal("path_refused", sentence, def.name);
}
