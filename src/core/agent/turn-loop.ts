/**
 * One turn: prefetch → route → grammar branch → generate (streaming) → parse → gatekeeper → handler →
 * results → repeat, with the recovery ladder, the context budget and clean abort.
 */
import { EngineError, type Constraint } from "../ports/engine";
import type { Envelope, EnvelopeToolCall } from "../protocol/envelope";
import { Gatekeeper, ToolRefusal, outboundContext, type AgentState } from "../gatekeeper/gatekeeper";
import { stateForStatus } from "../gatekeeper/states";
import type { AgentDeps, TurnResult } from "./agent";
import { TurnAborted, throwIfAborted } from "../ports/abort";
import { ContextFullError, budgetPrompt } from "./context-budget";
import type { Conversation, ConversationEntry, StoredToolResult } from "./conversation";
import { parseEnvelope } from "./envelope-parse";
import { EnvelopeStream } from "./envelope-stream";
import type { AgentErrorCode, AgentEvent, GrammarBranch, ToolResultEvent, TurnOutcome } from "./events";
import type { AgentOptions } from "./options";
import { systemPrompt } from "./prompt";
import { TokenCounter } from "./token-counter";

export interface TurnLoopInput {
  deps: AgentDeps;
  options: AgentOptions;
  conversation: Conversation;
  message: string;
  attachments: { path: string; text: string }[];
  signal?: AbortSignal;
  emit(event: AgentEvent): void;
  /** Shared across turns so token counts and validators are reused. */
  gatekeeper: Gatekeeper;
  counter: TokenCounter;
}

/** Why a round needs recovery. */
interface Failure {
  code: AgentErrorCode;
  /** The tool to retry (absent when the envelope itself was broken). */
  tool?: string;
  sentence: string;
}

let turnCounter = 0;
function newTurnId(): string {
  turnCounter = (turnCounter + 1) % 1_000_000;
  return `t${Date.now().toString(36)}${turnCounter.toString(36)}`;
}

function isoDay(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

/** Cuts a tool result to the budget, keeping its start and saying how much was left out. */
export function truncateResult(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[…${text.length - maxChars} more characters not shown]`;
}

/** The second half of a correction: what to send next. */
function retryAdvice(failure: Failure): string {
  const tool = failure.tool ?? "a tool";
  if (failure.code === "not_allowed_in_state") return `Call ${tool} again in a reply with status "Task".`;
  return `Call ${tool} again with corrected arguments.`;
}

/** Extra reply tokens under a server's JSON Schema, for the whitespace its converter allows between JSON tokens. */
const JSON_SCHEMA_WHITESPACE_TOKENS = 512;

const EMPTY_ENVELOPE: Envelope = { thought: "", status: "Idle", message_to_user: null, tool_calls: [] };

export async function runTurnLoop(input: TurnLoopInput): Promise<TurnResult> {
  const { deps, options, conversation, signal, gatekeeper, counter } = input;
  const emit = (event: AgentEvent): void => input.emit(event);
  const started = Date.now();
  const turnId = newTurnId();
  const history = conversation.entries.slice();
  const userEntry: ConversationEntry = { kind: "user", turnId, at: started, content: input.message, ...(input.attachments.length ? { attachments: input.attachments } : {}) };
  const current: ConversationEntry[] = [userEntry];
  conversation.append(userEntry);
  const commit = (entry: ConversationEntry): void => {
    current.push(entry);
    conversation.append(entry);
  };
  const toolResults: ToolResultEvent[] = [];
  let tokensIn = 0;
  let tokensOut = 0;
  let rounds = 0;
  let finalMessage: string | null = null;
  let outcome: TurnOutcome = "done";
  /** What constrained the last generation (the engine's report; GBNF when it says nothing and a grammar was sent). */
  let constraint: Constraint | undefined;
  /** The engine's sentence on an unconstrained reply, added to a final failure so the user knows why. */
  let engineNotice: string | undefined;
  emit({ type: "turn-start", turnId, message: input.message, at: started });

  const fail = (code: AgentErrorCode, message: string): void => {
    outcome = "failed";
    emit({ type: "error", turnId, code, message, recoverable: false });
  };

  try {
    throwIfAborted(signal);
    let memories = "";
    if (deps.memory) {
      try {
        memories = await deps.memory.prefetch(input.message, { maxTokens: options.memoryTokens, signal });
      } catch (err) {
        throwIfAborted(signal);
        // Memory is a help, not a requirement: the turn goes on without it.
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

    const all = deps.tools.names();
    let baseNames: string[];
    let branch: GrammarBranch;
    let routedTools: { name: string; score: number }[];
    let chatOnly = false;
    if (options.toolSelection === "full") {
      baseNames = all;
      branch = "full";
      routedTools = all.map((name) => ({ name, score: 1 }));
    } else {
      const decision = await deps.router.route(input.message, { signal });
      chatOnly = decision.chatOnly;
      if (decision.chatOnly) {
        baseNames = [];
        branch = "chat";
        routedTools = [];
      } else if (decision.unsure) {
        baseNames = all;
        branch = "full";
        routedTools = decision.tools;
      } else {
        baseNames = decision.tools.map((t) => t.name).filter((n) => deps.tools.has(n));
        branch = "routed";
        routedTools = decision.tools;
      }
    }
    if (!options.grammar) branch = "none";
    emit({ type: "routed", turnId, tools: routedTools, chatOnly, branch });

    const engineInfo = await deps.engine.modelInfo();
    const contextSize = engineInfo.contextSize ?? options.fallbackContextSize;
    // A server's JSON Schema converter allows whitespace our GBNF does not (llama.cpp's: up to 22 characters between
    // tokens of JSON): room for it, or a reply that used it would be cut before its envelope closed.
    const schemaSlack = engineInfo.constraint === "json_schema" ? JSON_SCHEMA_WHITESPACE_TOKENS : 0;
    let names = baseNames;
    let mode: "dynamic" | "static" = "dynamic";
    let state: AgentState = "Task";
    let targets: Set<string> | undefined;
    let attempts = 0;
    let toolRounds = 0;
    /** A correction for the next generation when the last reply was not an envelope (so no results entry carries it). */
    let systemCorrection = "";

    for (;;) {
      throwIfAborted(signal);
      // Tools can leave mid-turn (an MCP server stopped): offer only those still in the catalog.
      names = names.filter((n) => deps.tools.has(n));
      const offered = names.map((n) => deps.tools.get(n)).filter((t) => t !== undefined);
      const grammar = options.grammar ? deps.grammars.get(names, mode) : undefined;
      const system = systemPrompt({
        tools: offered,
        memories,
        instructions: [options.instructions, systemCorrection && `Correction: ${systemCorrection}`].filter(Boolean).join("\n"),
        today: isoDay(deps.toolContext.now()),
      });
      systemCorrection = "";
      // maxTokens = min(grammar bound, remaining context): every token carries at least one byte, so the grammar's
      // byte bound bounds its tokens. Without a grammar (or an unbounded one) the reply is capped by maxTokensCap.
      const bound = grammar && Number.isFinite(grammar.maxBytes) ? Math.ceil(grammar.maxBytes) + schemaSlack : options.maxTokensCap;
      const prompt = await budgetPrompt({
        system,
        history,
        current,
        contextSize,
        marginTokens: options.templateMarginTokens,
        boundTokens: bound,
        reserveTokens: options.maxTokensCap,
        minTokens: Math.min(bound, 32),
        counter,
      });
      rounds++;
      const round = rounds;
      const stream = new EnvelopeStream({
        thought: (text) => emit({ type: "thought-delta", turnId, round, text }),
        message: (text) => emit({ type: "message-delta", turnId, round, text }),
        toolCall: (call, i) => emit({ type: "tool-call", turnId, round, callId: `r${round}c${i}`, name: call.name, args: call.args }),
      });
      const result = await deps.engine.generate({
        messages: prompt.messages,
        grammar: grammar?.gbnf,
        jsonSchema: options.grammar ? deps.grammars.jsonSchema?.(names, mode) : undefined,
        maxTokens: prompt.maxTokens,
        thinkFirst: grammar && options.thinkFirstTokens > 0 ? { maxTokens: options.thinkFirstTokens } : undefined,
        temperature: options.temperature,
        seed: options.seed,
        conversationId: conversation.id,
        signal,
        onText: (chunk) => stream.push(chunk),
      });
      tokensIn += result.tokensIn;
      tokensOut += result.tokensOut;
      constraint = result.constraint ?? (grammar ? "gbnf" : "none");
      engineNotice = result.notice ?? engineNotice;
      if (result.stopReason === "abort" || signal?.aborted) throw new TurnAborted();

      const parsed = parseEnvelope(result.text);
      if (!parsed.ok) {
        const sentence =
          result.stopReason === "maxTokens"
            ? `The reply was cut at ${prompt.maxTokens} tokens before the envelope closed; keep the thought and message short.`
            : parsed.reason;
        if (!options.recovery || attempts >= options.recoveryAttempts) {
          fail(options.recovery ? "recovery_exhausted" : "bad_envelope", `The model did not produce a valid reply: ${sentence}${engineNotice ? ` ${engineNotice}` : ""}`);
          break;
        }
        attempts++;
        mode = attempts === 1 ? "dynamic" : "static";
        systemCorrection = sentence;
        emit({ type: "error", turnId, code: "bad_envelope", message: sentence, recoverable: true });
        continue;
      }

      const envelope = parsed.envelope;
      if (envelope.message_to_user !== null) finalMessage = envelope.message_to_user;
      for (let i = stream.callsReported; i < envelope.tool_calls.length; i++) {
        const call = envelope.tool_calls[i];
        emit({ type: "tool-call", turnId, round, callId: `r${round}c${i}`, name: call.name, args: call.args });
      }
      const assistantEntry: ConversationEntry = { kind: "assistant", turnId, at: Date.now(), envelope };
      if (state !== "Recover") state = stateForStatus(envelope.status);
      if (envelope.tool_calls.length === 0) {
        commit(assistantEntry);
        outcome = "done";
        break;
      }

      const results: StoredToolResult[] = [];
      let failure: Failure | undefined;
      let stopped = false;
      const offeredSet = new Set(names);
      for (let i = 0; i < envelope.tool_calls.length; i++) {
        const call: EnvelopeToolCall = envelope.tool_calls[i];
        const callId = `r${round}c${i}`;
        if (stopped || signal?.aborted) {
          stopped = true;
          results.push({ callId, name: call.name, ok: false, content: "Not run: the turn was stopped." });
          continue;
        }
        const push = (event: Omit<ToolResultEvent, "type" | "turnId" | "callId" | "name">): void => {
          const full: ToolResultEvent = { type: "tool-result", turnId, callId, name: call.name, ...event };
          toolResults.push(full);
          results.push({ callId, name: call.name, ok: full.ok, content: full.content });
          emit(full);
        };
        try {
          const checked = gatekeeper.check(call, { state, offered: offeredSet, targets });
          await gatekeeper.authorize(checked, deps.toolContext, {
            writes: options.writes,
            writesOffHint: options.writesOffHint,
            alwaysAllowed: conversation.alwaysAllowed,
            outbound: outboundContext(turnId, [...conversation.entries, assistantEntry, { kind: "tool-results", turnId, results }]),
            onAsk: (request) => emit({ type: "confirm-asked", turnId, callId, request }),
            onAnswer: (decision) => emit({ type: "confirm-answered", turnId, callId, decision }),
          });
          if (signal?.aborted) {
            stopped = true;
            results.push({ callId, name: call.name, ok: false, content: "Not run: the turn was stopped." });
            continue;
          }
          // Journaled: every change this call makes to the vault is recorded before it happens, so the turn can be undone.
          const vault = deps.journal ? deps.journal.vaultFor(deps.toolContext.vault, { turnId, callId, tool: call.name, conversationId: conversation.id }) : deps.toolContext.vault;
          const res = await checked.tool.definition.handler(checked.args, { ...deps.toolContext, vault, signal });
          const content = truncateResult(res.content, options.resultChars);
          if (state === "Recover" && res.empty) {
            // Semantic guard: while recovering, "nothing found" means the correction did not work.
            failure ??= { code: "empty_result", tool: call.name, sentence: `Tool "${call.name}" found nothing with these arguments; try different arguments.` };
          }
          push({ ok: true, content, args: checked.args, ...(res.empty ? { empty: true } : {}) });
        } catch (err) {
          if (err instanceof ToolRefusal) {
            if (err.malformed) failure ??= { code: err.code, tool: deps.tools.has(call.name) ? call.name : undefined, sentence: err.message };
            push({ ok: false, content: err.message, error: { code: err.code, message: err.message } });
          } else if (signal?.aborted) {
            stopped = true;
            results.push({ callId, name: call.name, ok: false, content: "Not run: the turn was stopped." });
          } else {
            const message = err instanceof Error ? err.message : String(err);
            push({ ok: false, content: message, error: { code: "tool_failed", message } });
          }
        }
      }

      const recovering = !!failure && options.recovery && !stopped && attempts < options.recoveryAttempts;
      const correction = recovering && failure ? `${failure.sentence} ${retryAdvice(failure)}` : undefined;
      commit(assistantEntry);
      commit({ kind: "tool-results", turnId, at: Date.now(), results, ...(correction ? { correction } : {}) });
      if (stopped) throw new TurnAborted();

      if (failure && options.recovery) {
        if (!recovering) {
          fail("recovery_exhausted", `Stopped after ${attempts} corrections: ${failure.sentence} Try rephrasing the request.`);
          break;
        }
        attempts++;
        mode = attempts === 1 ? "dynamic" : "static";
        if (failure.tool) names = [failure.tool];
        targets = new Set(names);
        state = "Recover";
        emit({ type: "error", turnId, code: failure.code, message: failure.sentence, recoverable: true });
        continue;
      }
      if (state === "Recover") {
        state = "Task";
        names = baseNames;
        mode = "dynamic";
        targets = undefined;
      }
      toolRounds++;
      if (toolRounds >= options.maxRounds) {
        outcome = "round-cap";
        break;
      }
    }
  } catch (err) {
    if (err instanceof TurnAborted || signal?.aborted) {
      outcome = "aborted";
    } else if (err instanceof ContextFullError) {
      fail("context_full", err.message);
    } else if (err instanceof EngineError) {
      fail(err.code === "aborted" ? "aborted" : err.code === "context_overflow" ? "context_full" : "engine_failed", err.message);
      if (err.code === "aborted") outcome = "aborted";
    } else {
      fail("engine_failed", `The turn failed unexpectedly: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  // History always alternates: a turn that ended without a final reply gets a closing placeholder.
  const last = conversation.entries[conversation.entries.length - 1];
  if (last.kind !== "assistant" || last.turnId !== turnId || last.envelope.tool_calls.length > 0) {
    const placeholder = outcome === "aborted" ? "aborted" : outcome === "round-cap" ? "round-cap" : "failed";
    commit({ kind: "assistant", turnId, at: Date.now(), envelope: EMPTY_ENVELOPE, placeholder });
  }
  const ms = Date.now() - started;
  emit({ type: "turn-end", turnId, outcome, message: finalMessage, rounds, tokensIn, tokensOut, ms, ...(constraint ? { constraint } : {}) });
  return { turnId, outcome, message: finalMessage, toolResults, rounds, tokensIn, tokensOut, ms, ...(constraint ? { constraint } : {}) };
}
