/**
 * One turn, as a list of steps: prepare (memories, tool sources) → choose tools → then, round after round, generate
 * a round → run its calls → recover → route again (a later round's offer may widen with what happened), until the
 * model answers without calls, the round cap, a stop or a failure.
 */
import { EngineError } from "../ports/engine";
import type { Envelope } from "../protocol/envelope";
import { TurnAborted, throwIfAborted } from "../ports/abort";
import type { TurnResult } from "./agent-types";
import { ContextFullError, budgetPrompt } from "./context-budget";
import type { ConversationEntry } from "./conversation";
import { parseEnvelope } from "./envelope-parse";
import { EnvelopeStream } from "./envelope-stream";
import type { GrammarBranch } from "./events";
import type { RegisteredTool } from "../protocol/registry";
import { addedToolsText, fixedSystemPrompt, systemPrompt, turnBlock } from "./prompt";
import { Recovery, recoverFromCalls, recoverFromReply } from "./recovery";
import { RoundRouting } from "./round-routing";
import { runCalls } from "./tool-calls";
import { groundingContext, seeTurnNotes } from "./grounding-context";
import { Turn, type TurnLoopInput } from "./turn";

export type { TurnLoopInput } from "./turn";

/** Extra reply tokens under a server's JSON Schema, for the whitespace its converter allows between JSON tokens. */
const JSON_SCHEMA_WHITESPACE_TOKENS = 512;

/** What every round of a turn shares. */
interface RoundSetting {
  memories: string;
  /** Tools the prompt has announced so far (the turn block's, then those added after results). */
  announced: Set<string>;
  contextSize: number;
  /** Reply tokens added to the grammar's bound (see JSON_SCHEMA_WHITESPACE_TOKENS). */
  schemaSlack: number;
}

/** A generated round: an envelope (with its history entry), or why the reply was not one. */
type Reply = { round: number; envelope: Envelope; entry: ConversationEntry } | { round: number; envelope?: undefined; sentence: string };

export async function runTurnLoop(input: TurnLoopInput): Promise<TurnResult> {
  const turn = new Turn(input);
  try {
    const memories = await prepareTurn(input);
    await seeTurnNotes(input);
    const chosen = await chooseTools(input, turn);
    const recovery = new Recovery(chosen.names, input.options);
    const routing = new RoundRouting(chosen.branch, chosen.names, chosen.scores);
    const setting = { memories, announced: new Set(chosen.names), ...(await contextLimits(input)) };
    let toolRounds = 0;
    for (;;) {
      throwIfAborted(input.signal);
      routing.announce(turn, recovery, turn.rounds + 1, input.options.grammar);
      const reply = await generateRound(input, turn, recovery, setting);
      if (!reply.envelope) {
        if (recoverFromReply(turn, recovery, reply.sentence)) continue;
        break;
      }
      recovery.followStatus(reply.envelope.status);
      if (reply.envelope.tool_calls.length === 0) {
        turn.commit(reply.entry);
        turn.outcome = "done";
        break;
      }
      const calls = await runCalls(input, turn, recovery, reply.round, reply.envelope.tool_calls);
      const next = recoverFromCalls(turn, recovery, { entry: reply.entry, calls: reply.envelope.tool_calls }, calls);
      if (next === "retry") continue;
      if (next === "ended") break;
      if (++toolRounds >= input.options.maxRounds) {
        turn.outcome = "round-cap";
        break;
      }
      // Route step before the next round: what happened may widen the offer (round-routing.ts).
      await routing.widen(input, turn, recovery, reply.envelope, calls.results);
    }
  } catch (err) {
    endOnError(turn, err, input.signal);
  }
  return turn.end();
}

/** Prepare step: this message's memories, and tool sources brought up. Neither is required: a failure is a notice. */
async function prepareTurn({ deps, options, message, signal }: TurnLoopInput): Promise<string> {
  throwIfAborted(signal);
  let memories = "";
  if (deps.memory) {
    try {
      memories = await deps.memory.prefetch(message, { maxTokens: options.memoryTokens, signal });
    } catch (err) {
      throwIfAborted(signal);
      deps.user.notify(`Memories could not be searched: ${(err as Error).message}`, "warning");
    }
  }
  throwIfAborted(signal);
  if (deps.prepare) {
    try {
      // Stop must not wait for a tool source (a server's restart backoff can take seconds).
      await Promise.race([
        deps.prepare({ signal }),
        new Promise<void>((resolve) => {
          if (signal?.aborted) resolve();
          signal?.addEventListener("abort", () => resolve(), { once: true });
        }),
      ]);
    } catch (err) {
      throwIfAborted(signal);
      deps.user.notify(`Some tools could not be prepared: ${(err as Error).message}`, "warning");
    }
  }
  throwIfAborted(signal);
  return memories;
}

/** What the choose-tools step decided: the first round's tools, its grammar branch and the router's scores. */
interface Chosen {
  names: string[];
  branch: GrammarBranch;
  scores: Map<string, number>;
}

/** Choose-tools step: the tools the first round offers (the router's, the full catalog, or none for small talk). */
async function chooseTools({ deps, options, message, signal }: TurnLoopInput, turn: Turn): Promise<Chosen> {
  const all = deps.tools.names();
  let names: string[] = all;
  let branch: GrammarBranch = "full";
  let tools = all.map((name) => ({ name, score: 1 }));
  let chatOnly = false;
  if (options.toolSelection !== "full") {
    const decision = await deps.router.route(message, { signal });
    chatOnly = decision.chatOnly;
    tools = decision.tools;
    if (decision.chatOnly) {
      names = [];
      branch = "chat";
    } else if (!decision.unsure) {
      names = decision.tools.map((t) => t.name).filter((n) => deps.tools.has(n));
      branch = "routed";
    }
  }
  if (!options.grammar) branch = "none";
  turn.emit({ type: "routed", turnId: turn.id, round: 1, tools, chatOnly, branch });
  return { names, branch, scores: new Map(tools.map((t) => [t.name, t.score])) };
}

/** The context every round fits in. */
async function contextLimits({ deps, options }: TurnLoopInput): Promise<Omit<RoundSetting, "memories" | "announced">> {
  const info = await deps.engine.modelInfo();
  // A server's JSON Schema converter allows whitespace our GBNF does not (llama.cpp's: up to 22 characters between
  // tokens of JSON): room for it, or a reply that used it would be cut before its envelope closed.
  const schemaSlack = info.constraint === "json_schema" ? JSON_SCHEMA_WHITESPACE_TOKENS : 0;
  return { contextSize: info.contextSize ?? options.fallbackContextSize, schemaSlack };
}

/** Generate step: one reply under the grammar of the tools on offer, streamed to the listeners, then parsed. */
async function generateRound(input: TurnLoopInput, turn: Turn, recovery: Recovery, setting: RoundSetting): Promise<Reply> {
  const { deps, options, signal } = input;
  const { grammar, prompt, context } = await roundPrompt(input, turn, recovery, setting);
  const round = ++turn.rounds;
  const stream = new EnvelopeStream({
    thought: (text) => turn.emit({ type: "thought-delta", turnId: turn.id, round, text }),
    message: (text) => turn.emit({ type: "message-delta", turnId: turn.id, round, text }),
    toolCall: (call, i) => turn.emit({ type: "tool-call", turnId: turn.id, round, callId: `r${round}c${i}`, name: call.name, args: call.args }),
  });
  const result = await deps.engine.generate({
    messages: prompt.messages,
    grammar: grammar?.gbnf,
    jsonSchema: options.grammar ? deps.grammars.jsonSchema?.(recovery.names, recovery.mode, context) : undefined,
    maxTokens: prompt.maxTokens,
    thinkFirst: grammar && options.thinkFirstTokens > 0 ? { maxTokens: options.thinkFirstTokens } : undefined,
    temperature: options.temperature,
    seed: options.seed,
    conversationId: input.conversation.id,
    signal,
    onText: (chunk) => stream.push(chunk),
  });
  turn.tokensIn += result.tokensIn;
  turn.tokensOut += result.tokensOut;
  if (result.tokensEvaluated !== undefined) turn.tokensEvaluated = (turn.tokensEvaluated ?? 0) + result.tokensEvaluated;
  turn.constraint = result.constraint ?? (grammar ? "gbnf" : "none");
  turn.engineNotice = result.notice ?? turn.engineNotice;
  if (result.stateNotice) deps.user.notify(result.stateNotice, "info");
  if (result.stopReason === "abort" || signal?.aborted) throw new TurnAborted();

  const parsed = parseEnvelope(result.text);
  if (!parsed.ok) {
    const cut = `The reply was cut at ${prompt.maxTokens} tokens before the envelope closed; keep the thought and message short.`;
    return { round, sentence: result.stopReason === "maxTokens" ? cut : parsed.reason };
  }
  const envelope = parsed.envelope;
  if (envelope.message_to_user !== null) turn.finalMessage = envelope.message_to_user;
  for (let i = stream.callsReported; i < envelope.tool_calls.length; i++) {
    const call = envelope.tool_calls[i];
    turn.emit({ type: "tool-call", turnId: turn.id, round, callId: `r${round}c${i}`, name: call.name, args: call.args });
  }
  // The reply is replayed as generated (its tokens are what the engine's sequence holds), not re-serialized.
  const text = result.text === JSON.stringify(envelope) ? {} : { text: result.text };
  return { round, envelope, entry: { kind: "assistant", turnId: turn.id, at: Date.now(), envelope, ...text } };
}

/** The grammar and the budgeted prompt of the next round. */
async function roundPrompt(input: TurnLoopInput, turn: Turn, recovery: Recovery, setting: RoundSetting) {
  const { deps, options, counter } = input;
  // Tools can leave mid-turn (an MCP server stopped): offer only those still in the catalog.
  recovery.keepAvailable((n) => deps.tools.has(n));
  const offered = recovery.names.map((n) => deps.tools.get(n)).filter((t) => t !== undefined);
  // Grounded: the vault's paths, and the headings and text of the notes in context as they are now.
  const context = options.grammar ? await groundingContext(input) : undefined;
  const grammar = options.grammar ? deps.grammars.get(recovery.names, recovery.mode, context) : undefined;
  const correction = recovery.takeSystemCorrection();
  const today = isoDay(deps.toolContext.now());
  const system =
    options.promptLayout === "previous"
      ? systemPrompt({ tools: offered, memories: setting.memories, instructions: [options.instructions, correction && `Correction: ${correction}`].filter(Boolean).join("\n"), today })
      : growingLayout(turn, offered, setting, today, correction, options.instructions);
  // maxTokens = min(grammar bound, remaining context): every token carries at least one byte, so the grammar's
  // byte bound bounds its tokens. Without a grammar (or an unbounded one) the reply is capped by maxTokensCap.
  const bound = grammar && Number.isFinite(grammar.maxBytes) ? Math.ceil(grammar.maxBytes) + setting.schemaSlack : options.maxTokensCap;
  const prompt = await budgetPrompt({
    system,
    history: turn.history,
    current: turn.current,
    contextSize: setting.contextSize,
    marginTokens: options.templateMarginTokens,
    boundTokens: bound,
    reserveTokens: options.maxTokensCap,
    minTokens: Math.min(bound, 32),
    counter,
    trimmedThrough: input.conversation.trim?.throughTurnId,
    summaries: input.conversation.trim?.summaries,
  });
  if (prompt.trim) input.conversation.recordTrim(prompt.trim.throughTurnId, prompt.trim.summaries);
  return { grammar, prompt, context };
}

/**
 * The growing layout: the fixed system message; the turn block goes on the turn's user entry in its first round (what
 * the turn offers outside recovery), tools a later round added are announced after the newest results (earlier text is
 * never rewritten, so the evaluated prefix only grows), and a correction for a reply that was no envelope goes on the
 * turn's newest entry.
 */
function growingLayout(turn: Turn, offered: RegisteredTool[], setting: RoundSetting, today: string, correction: string, instructions?: string): string {
  const user = turn.current[0];
  if (user.kind === "user" && user.turnBlock === undefined) user.turnBlock = turnBlock({ tools: offered, memories: setting.memories, today });
  const last = turn.current[turn.current.length - 1];
  const added = offered.filter((t) => !setting.announced.has(t.definition.name));
  if (added.length > 0 && last.kind === "tool-results" && last.offered === undefined) {
    last.offered = addedToolsText(added);
    for (const t of added) setting.announced.add(t.definition.name);
  }
  if (correction && (last.kind === "user" || last.kind === "tool-results")) last.correction = last.correction ? `${last.correction} ${correction}` : correction;
  return fixedSystemPrompt(instructions);
}

/** How an exception ends the turn: a stop, a full context, an engine failure, or a bug, each with its sentence. */
function endOnError(turn: Turn, err: unknown, signal: AbortSignal | undefined): void {
  if (err instanceof TurnAborted || signal?.aborted) {
    turn.outcome = "aborted";
  } else if (err instanceof ContextFullError) {
    turn.fail("context_full", err.message);
  } else if (err instanceof EngineError) {
    turn.fail(err.code === "aborted" ? "aborted" : err.code === "context_overflow" ? "context_full" : "engine_failed", err.message);
    if (err.code === "aborted") turn.outcome = "aborted";
  } else {
    turn.fail("engine_failed", `The turn failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function isoDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}
