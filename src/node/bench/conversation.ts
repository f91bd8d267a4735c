/**
 * `bench conversation --model F [--turns 8] [--threads 2] [--context 4096] [--layout previous] --json`: a fixed
 * multi-turn conversation through the real agent (routing, memory prefetch, tools, results) over a copy of
 * examples/vault, reporting per turn and round the prompt, evaluated and reused tokens, prompt-evaluation and
 * first-token times; then a turn is cancelled and the next one measured, the engine host restarts and the conversation
 * continues (its saved state restored), and a new conversation starts (the system prompt's saved state).
 * `--layout previous` runs the old layout too, in the same run, so the ratio is side by side.
 *
 * Evaluated tokens are the engine's own count (node-llama-cpp's token meter), so a prefix the sequence held but the
 * engine read again (an erase on a recurrent model without a checkpoint) counts as evaluated, and the goals fall short.
 * Each round also records what the sequence held when it began: the goal `evaluated_within_held_claim` fails whenever
 * the engine evaluated more than the prompt's part past that (it re-read what it held).
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Conversation } from "../../core/agent/conversation";
import type { AgentEvent } from "../../core/agent/events";
import type { PromptLayout } from "../../core/agent/prompt";
import { userText } from "../../core/agent/prompt";
import type { ChatMessage, Engine, GenerateRequest, GenerateResult } from "../../core/ports/engine";
import type { EngineClient } from "../../engine/client/engine-client";
import type { HostStatus } from "../../engine/client/host-protocol";
import { createNodeEngine } from "../../engine/client/node-launcher";
import { UsageError } from "../cli-types";
import { composeHeadless, TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../compose";

const exampleVault = fileURLToPath(new URL("../../../examples/vault", import.meta.url));

/** The fixed script: reads, searches, a list, small talk, follow-ups that lean on earlier turns. */
const SCRIPT = [
  "What is in my Inbox note?",
  "Search my notes for lentils.",
  "List the notes in the Projects folder.",
  "Thanks! How are you today?",
  "Read the Project Alpha note and tell me its goals.",
  "Which tags does the Reading List note have?",
  "Find the meeting notes that mention the budget.",
  "Summarize what we looked at so far.",
  "Open my Home note.",
  "What ideas do I have written down?",
];

interface RoundRow {
  prompt_tokens: number;
  /** Prompt tokens the engine evaluated, by its meter. */
  evaluated_tokens: number;
  /** prompt_tokens less evaluated_tokens. */
  reused_tokens: number;
  /** Prompt tokens the sequence held when the round began (a reuse that holds evaluates only the rest). */
  held_tokens: number;
  /** Every token the engine's meter counted in the round (prompt, re-reads, the reply fed back). */
  metered_tokens: number;
  tokens_out: number;
  /** Bytes of the sequence's checkpoints after the round (recurrent and hybrid models). */
  checkpoint_bytes: number;
  /** Tokens of the round's messages that the previous prompt and its reply did not hold (unseenText). */
  new_tokens: number;
  /** Tokens loaded from the conversation's saved state before the round (after the restart). */
  restored_tokens?: number;
  stop: GenerateResult["stopReason"];
  prompt_eval_ms: number;
  first_token_ms: number;
}

interface TurnRow {
  turn: number;
  /** Tokens of the first round's messages that no earlier prompt or reply held (the user message with its turn block, and the results of a last round whose reply was never followed). */
  new_tokens: number;
  /** Messages those new tokens come from (each also brings the chat template's markers, about 5–7 tokens). */
  new_messages: number;
  /** True when this turn's first round trimmed old turns from the prompt (the prefix is rebuilt once). */
  trimmed: boolean;
  wall_ms: number;
  outcome: string;
  rounds: RoundRow[];
}

/**
 * What a prompt adds to the one before it (with that prompt's reply): the messages after the longest run both hold at
 * the same positions, plus the system message when it changed (the previous layout rewrites it every turn).
 */
export function unseenMessages(held: ChatMessage[], messages: ChatMessage[]): ChatMessage[] {
  const same = (a: ChatMessage | undefined, b: ChatMessage): boolean => a !== undefined && a.role === b.role && a.content === b.content;
  const parts: ChatMessage[] = [];
  let from = 0;
  if (messages[0]?.role === "system") {
    if (!same(held[0], messages[0])) parts.push(messages[0]);
    from = 1;
  }
  let i = from;
  while (i < messages.length && same(held[i], messages[i])) i++;
  return [...parts, ...messages.slice(i)];
}

/** The text of unseenMessages, one message a line (its tokens are a round's new tokens, without the template's markers). */
export function unseenText(held: ChatMessage[], messages: ChatMessage[]): string {
  return unseenMessages(held, messages).map((m) => m.content).join("\n");
}

/** An engine that forwards to the current host client (replaced on restart) and records every generation. */
class RecordingEngine implements Engine {
  rounds: RoundRow[] = [];
  /** Per round, the messages past what the previous prompt and its reply held (position by position), as one text. */
  unseen: string[] = [];
  /** Per round, how many messages that text comes from (each adds the template's markers, which new tokens leave out). */
  unseenCount: number[] = [];
  private held: ChatMessage[] = [];
  constructor(public client: EngineClient) {}

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const added = unseenMessages(this.held, request.messages);
    const unseen = added.map((m) => m.content).join("\n");
    this.unseen.push(unseen);
    this.unseenCount.push(added.length);
    const sent = performance.now();
    let firstAt: number | undefined;
    const result = await this.client.generate({
      ...request,
      onText: (chunk) => {
        firstAt ??= performance.now();
        request.onText?.(chunk);
      },
    });
    this.held = [...request.messages, { role: "assistant", content: result.text }];
    const round = (n: number): number => Math.round(n * 10) / 10;
    this.rounds.push({
      prompt_tokens: result.tokensIn,
      evaluated_tokens: result.tokensEvaluated,
      reused_tokens: result.tokensIn - result.tokensEvaluated,
      held_tokens: result.tokensHeld ?? 0,
      metered_tokens: result.tokensMetered ?? 0,
      tokens_out: result.tokensOut,
      checkpoint_bytes: result.checkpointBytes ?? 0,
      new_tokens: await this.client.countTokens(unseen),
      ...(result.restoredTokens ? { restored_tokens: result.restoredTokens } : {}),
      stop: result.stopReason,
      prompt_eval_ms: round(result.promptEvalMs),
      first_token_ms: round((firstAt ?? performance.now()) - sent),
    });
    return result;
  }
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]> {
    return this.client.embed(texts, options);
  }
  countTokens(text: string): Promise<number> {
    return this.client.countTokens(text);
  }
  modelInfo() {
    return this.client.modelInfo();
  }
}

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
}

function wholeNumber(argv: string[], name: string, fallback: number): number {
  const value = option(argv, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a whole number above 0, got "${value}".`);
  return Number(value);
}

interface RunSetup {
  model: string;
  threads: number;
  contextSize: number;
  turns: number;
  layout: PromptLayout;
  /** State folder (growing layout only): the restart and new-conversation phases need it. */
  states?: string;
}

type Phase = { new_tokens: number; prompt_tokens: number; evaluated_tokens: number; reused_tokens: number; held_tokens: number; restored_tokens?: number; prompt_eval_ms: number; outcome: string };

interface RunOutcome {
  turns: TurnRow[];
  /** The turn after a cancelled one (its first round). */
  after_cancel?: Phase;
  restart?: Phase;
  new_conversation?: Phase;
  /** Every round of the run, cancelled and later phases included (for the meter checks). */
  rounds: RoundRow[];
  /** The host's checkpoint memory at the end of the run and its bound (recurrent and hybrid models). */
  checkpoints?: { bytes: number; maxBytes: number };
}

/** Chunks of a reply streamed before the cancelled turn is stopped. */
const CANCEL_AFTER_CHUNKS = 6;

async function runConversation(setup: RunSetup): Promise<RunOutcome> {
  const vault = mkdtempSync(join(tmpdir(), "bench-conversation-"));
  cpSync(exampleVault, vault, { recursive: true });
  const client = (): EngineClient =>
    createNodeEngine({
      model: { path: setup.model, contextSize: setup.contextSize, threads: setup.threads, ...(setup.states ? { states: { dir: setup.states, saveDelayMs: 0 } } : {}) },
    });
  const engine = new RecordingEngine(client());
  // Random weights fill every string to its cap: the test model's grammar caps keep each envelope short.
  const headless = await composeHeadless({
    vault,
    engine,
    grammarOptions: TEST_MODEL_GRAMMAR,
    clamp: TEST_MODEL_CLAMP,
    agentOptions: { promptLayout: setup.layout, maxTokensCap: 4096, seed: 1, temperature: 0.7 },
  });
  const { agent } = headless;
  const turn = async (n: number, message: string, cancel = false): Promise<TurnRow> => {
    const from = engine.rounds.length;
    const trimmedBefore = agent.conversation.trim?.throughTurnId;
    const controller = new AbortController();
    let chunks = 0;
    const onEvent = cancel
      ? (e: AgentEvent): void => {
          if ((e.type === "thought-delta" || e.type === "message-delta") && ++chunks === CANCEL_AFTER_CHUNKS) controller.abort();
        }
      : undefined;
    const result = await agent.runTurn(message, { signal: controller.signal, onEvent });
    const unseen = engine.unseen[from];
    const user = agent.conversation.entries.find((e) => e.turnId === result.turnId && e.kind === "user");
    const newTokens = unseen !== undefined ? await engine.countTokens(unseen) : user?.kind === "user" ? await engine.countTokens(userText(user)) : 0;
    const trimmed = agent.conversation.trim?.throughTurnId !== trimmedBefore;
    return { turn: n, new_tokens: newTokens, new_messages: engine.unseenCount[from] ?? 1, trimmed, wall_ms: result.ms, outcome: result.outcome, rounds: engine.rounds.slice(from) };
  };
  const phase = (row: TurnRow): Phase => {
    const first = row.rounds[0];
    return {
      new_tokens: row.new_tokens,
      prompt_tokens: first?.prompt_tokens ?? 0,
      evaluated_tokens: first?.evaluated_tokens ?? 0,
      reused_tokens: first?.reused_tokens ?? 0,
      held_tokens: first?.held_tokens ?? 0,
      ...(first?.restored_tokens ? { restored_tokens: first.restored_tokens } : {}),
      prompt_eval_ms: first?.prompt_eval_ms ?? 0,
      outcome: row.outcome,
    };
  };
  try {
    const turns: TurnRow[] = [];
    for (let i = 0; i < setup.turns; i++) turns.push(await turn(i + 1, SCRIPT[i % SCRIPT.length]));
    if (!setup.states) return { turns, rounds: engine.rounds };
    // A turn stopped while its reply streams; the next turn goes on from its prompt.
    const cancelled = await turn(setup.turns + 1, SCRIPT[setup.turns % SCRIPT.length], true);
    const afterCancel = { ...phase(await turn(setup.turns + 2, SCRIPT[(setup.turns + 1) % SCRIPT.length])), cancelled_outcome: cancelled.outcome };
    // Restart: the shutdown writes the conversation's state; the new host restores it on the next turn.
    await engine.client.shutdown();
    engine.client = client();
    const restart = phase(await turn(setup.turns + 3, SCRIPT[(setup.turns + 2) % SCRIPT.length]));
    agent.conversation = new Conversation();
    const fresh = phase(await turn(1, SCRIPT[0]));
    const { checkpoints } = (await engine.client.request("status", {})) as HostStatus;
    return { turns, after_cancel: afterCancel, restart, new_conversation: fresh, rounds: engine.rounds, ...(checkpoints ? { checkpoints } : {}) };
  } finally {
    await headless.close();
    await engine.client.shutdown();
    rmSync(vault, { recursive: true, force: true });
  }
}

/**
 * The engine's meter against what the run reports: the evaluated tokens reported plus the reply tokens fed back against
 * everything the meter counted; and the evaluated tokens against the part of each prompt the sequence did not hold (more
 * means the engine re-read what it held). A reply feeds back at most its tokens less the last (sampled, never
 * evaluated), and fewer when it ends in forced text: the envelope's closing (`]}` and what the grammar forces before
 * it) is appended without being evaluated, since nothing is sampled after it (7 tokens a round at Qwen3.5 2B's size).
 * So a round's meter count past its reported prompt figure is its reply's only up to that bound; anything beyond (a
 * re-read the prompt figure missed) makes the reported figures fall short of the meter.
 */
function meterChecks(rounds: RoundRow[]): Record<string, boolean | number> {
  const sum = (f: (r: RoundRow) => number): number => rounds.reduce((n, r) => n + f(r), 0);
  const metered = sum((r) => r.metered_tokens);
  const replyBound = (r: RoundRow): number => Math.max(0, r.tokens_out - 1);
  const fed = (r: RoundRow): number => Math.max(0, r.metered_tokens - r.evaluated_tokens);
  const reported = sum((r) => r.evaluated_tokens + Math.min(fed(r), replyBound(r)));
  const evaluated = sum((r) => r.evaluated_tokens);
  const unheld = sum((r) => r.prompt_tokens - r.held_tokens);
  return {
    metered_tokens: metered,
    reported_tokens: reported,
    /** Reply tokens never fed back beyond each reply's last (the forced closing of an envelope). */
    reply_tokens_not_fed: sum((r) => Math.max(0, replyBound(r) - fed(r))),
    reported_within_1pct_of_meter: metered > 0 && Math.abs(reported - metered) <= metered * 0.01,
    evaluated_tokens: evaluated,
    unheld_prompt_tokens: unheld,
    evaluated_within_held_claim: evaluated <= unheld * 1.01,
    max_checkpoint_bytes: Math.max(0, ...rounds.map((r) => r.checkpoint_bytes)),
  };
}

/** The goals, checked on this run's rows. */
function goals(turns: TurnRow[], previous: TurnRow[] | undefined, restart: Phase | undefined, afterCancel?: Phase): Record<string, boolean | number | number[] | null> {
  const first = (t: TurnRow | undefined) => t?.rounds[0];
  const later = turns.slice(1);
  const fits = (t: TurnRow): boolean => (first(t)?.evaluated_tokens ?? Infinity) <= t.new_tokens + 64;
  const within = later.every(fits);
  // A later round of a turn: what it evaluated past its new messages was read again (a template that rewrote history).
  const rereads = turns.flatMap((t) => t.rounds.slice(1).map((r) => r.evaluated_tokens - r.new_tokens));
  const shares = turns.slice(3, 8).map((t) => (first(t) ? first(t)!.reused_tokens / first(t)!.prompt_tokens : 0));
  const t2 = first(turns[1])?.prompt_eval_ms;
  const t8 = first(turns[turns.length - 1])?.prompt_eval_ms;
  const p8 = first(previous?.[previous.length - 1])?.prompt_eval_ms;
  return {
    first_round_within_new_plus_64: within,
    // A trim rebuilds the prefix once by design; the goal is also read over the turns that did not trim.
    first_round_within_new_plus_64_untrimmed: later.filter((t) => !t.trimmed).every(fits),
    trimmed_turns: turns.filter((t) => t.trimmed).map((t) => t.turn),
    max_later_round_reread: rereads.length ? Math.max(...rereads) : null,
    later_rounds_reread_within_64: rereads.every((n) => n <= 64),
    min_reused_share_turns_4_to_8: shares.length ? Math.round(Math.min(...shares) * 1000) / 1000 : null,
    last_vs_turn2_prompt_eval: t2 && t8 !== undefined ? Math.round((t8 / t2) * 100) / 100 : null,
    last_vs_previous_layout_prompt_eval: p8 && t8 !== undefined ? Math.round((t8 / p8) * 1000) / 1000 : null,
    restart_within_new_plus_64: restart ? restart.evaluated_tokens <= restart.new_tokens + 64 : null,
    after_cancel_within_new_plus_64: afterCancel ? afterCancel.evaluated_tokens <= afterCancel.new_tokens + 64 : null,
  };
}

function pick<T extends Record<string, unknown>>(o: T, keys: (keyof T)[]): Partial<T> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as Partial<T>;
}

/** This benchmark's line in `bench --help`. */
export const usage =
  "conversation --model F [--turns 8] [--threads 2] [--context 4096] [--layout previous] [--json]   a fixed conversation through the real agent: per turn and round prompt, evaluated (by the engine's meter) and reused tokens and times, then a cancelled turn, a host restart and a new conversation; --layout previous runs the old layout in the same run";

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const model = option(argv, "model");
  if (!model) throw new UsageError("Give the chat model with --model F (e.g. make-test-model --family qwen2.5 --size 0.5b).");
  const layoutArg = option(argv, "layout");
  if (layoutArg !== undefined && layoutArg !== "previous") throw new UsageError(`--layout takes "previous" (run the old layout side by side), got "${layoutArg}".`);
  const base = {
    model: resolve(model),
    threads: wholeNumber(argv, "threads", 2),
    contextSize: wholeNumber(argv, "context", 4096),
    turns: wholeNumber(argv, "turns", 8),
  };
  const states = mkdtempSync(join(tmpdir(), "bench-conversation-states-"));
  try {
    const growing = await runConversation({ ...base, layout: "growing", states });
    const previous = layoutArg === "previous" ? await runConversation({ ...base, layout: "previous" }) : undefined;
    return {
      model: base.model,
      threads: base.threads,
      context_size: base.contextSize,
      turns: growing.turns,
      ...(previous ? { previous: { turns: previous.turns } } : {}),
      after_cancel: growing.after_cancel,
      restart: growing.restart,
      new_conversation: growing.new_conversation,
      meter: meterChecks(growing.rounds),
      ...(growing.checkpoints ? { checkpoints: { bytes_at_end: growing.checkpoints.bytes, max_bytes: growing.checkpoints.maxBytes } } : {}),
      goals: {
        ...goals(growing.turns, previous?.turns, growing.restart, growing.after_cancel),
        ...pick(meterChecks(growing.rounds), ["reported_within_1pct_of_meter", "evaluated_within_held_claim"]),
        ...(growing.checkpoints ? { checkpoints_within_bound: Math.max(0, ...growing.rounds.map((r) => r.checkpoint_bytes)) <= growing.checkpoints.maxBytes } : {}),
      },
    };
  } finally {
    rmSync(states, { recursive: true, force: true });
  }
}
