/**
 * `bench session [--turns N] [--model F]`: one conversation of N turns (default 100) through the real agent and engine
 * host (the generated test model, or F) over a copy of examples/vault, with a fixed, varied script of user messages:
 * questions, writes the bench approves, small talk, repeats of earlier questions, other languages. Per block of 10
 * turns: valid envelopes (every generated reply parsed), recoveries by kind (not_envelope, refused_call, repeat,
 * no_progress), rounds per turn, turn wall time (median, max), prompt and evaluated tokens per turn, context trims,
 * resident memory of the engine host and of this process (MB, at the block's end), and the conversation file's size
 * (bytes of its saved JSON). Then the goals: valid_all (100% in every block), last_over_second_median (≤ 1.5),
 * rss_growth_mb from turn 10 to the last (≤ 50, host and agent together), file_bytes (≤ 2 MB), and
 * evaluated_within_held_claim: the evaluated tokens are the engine's meter, and they stay within the part of each
 * prompt the sequence did not already hold (more means the engine re-read what it held, as an erase without a
 * checkpoint does on a recurrent model).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseEnvelope } from "../../core/agent/envelope-parse";
import type { AgentEvent } from "../../core/agent/events";
import type { GenerateRequest, GenerateResult } from "../../core/ports/engine";
import type { UserPort } from "../../core/ports/user";
import { parseArgs, UsageError } from "../cli-types";
import { composeHeadless } from "../compose";

const SCRIPT = [
  "hello there",
  "what is in my Inbox note?",
  "find notes about lentils",
  "add buy bread to my Shopping List note",
  "thanks!",
  "what are the goals of Project Alpha?",
  "list my open tasks",
  "¿Qué hay en mi nota Inbox?",
  "who is Maria Alvarez?",
  "what is in my Inbox note?",
  "read my Reading List note",
  "Was steht in meiner Einkaufsliste?",
  "add call the plumber to my Inbox note",
  "how are you today?",
  "find notes that mention the offsite",
  "what did I write in yesterday's daily note?",
  "find notes about lentils",
  "summarize the Alpha sync meeting",
  "ok, that is all for now",
  "quels sont mes projets en cours ?",
];

function log(line: string): void {
  process.stderr.write(`[bench session] ${line}\n`);
}

/** Resident memory of a process in MB, from /proc (Linux); undefined elsewhere. */
function rssMb(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 102.4) / 10 : undefined;
  } catch {
    return undefined;
  }
}

const round1 = (n: number): number => Math.round(n * 10) / 10;
function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
}

/** One turn's measurements. */
interface TurnRow {
  ms: number;
  rounds: number;
  replies: number;
  valid: number;
  promptTokens: number;
  evaluatedTokens: number;
  /** Prompt tokens past what the sequence held when each round began. */
  unheldTokens: number;
  recoveries: Record<string, number>;
  trims: number;
}

function recoveryKind(code: string): string {
  if (code === "bad_envelope") return "not_envelope";
  if (code === "repeated_call") return "repeat";
  if (code === "no_progress") return "no_progress";
  return "refused_call";
}

/** This benchmark's line in `bench --help`. */
export const usage =
  "session [--turns N] [--model F] [--json]   one conversation of N turns (default 100) through the real agent over a copy of examples/vault, measured per block of 10 turns";

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const args = parseArgs(argv, { strings: ["turns", "model"] }).options;
  const turns = args.turns === undefined ? 100 : Number(args.turns);
  if (!Number.isInteger(turns) || turns < 10) throw new UsageError(`--turns must be a whole number of at least 10, not "${String(args.turns)}".`);
  const vault = mkdtempSync(join(tmpdir(), "bench-session-"));
  cpSync(fileURLToPath(new URL("../../../examples/vault", import.meta.url)), vault, { recursive: true });
  const user: UserPort = { confirm: async () => "approve", notify: () => {} };
  const headless = await composeHeadless({ vault, model: typeof args.model === "string" ? args.model : undefined, allowWrites: true, user, memory: true });
  const rows: TurnRow[] = [];
  const blocks: Record<string, unknown>[] = [];
  let row: TurnRow | undefined;
  // Every reply the engine returns, checked as the agent will check it (a measurement wrapper: the reply is unchanged).
  const engine = headless.engine;
  const generate = engine.generate.bind(engine);
  engine.generate = async (request: GenerateRequest): Promise<GenerateResult> => {
    const result = await generate(request);
    if (row && result.stopReason !== "abort") {
      row.replies++;
      if (parseEnvelope(result.text).ok) row.valid++;
      row.promptTokens += result.tokensIn;
      const facts = result as GenerateResult & { tokensEvaluated?: number; tokensHeld?: number };
      row.evaluatedTokens += facts.tokensEvaluated ?? result.tokensIn;
      row.unheldTokens += result.tokensIn - (facts.tokensHeld ?? 0);
    }
    return result;
  };
  const onEvent = (event: AgentEvent): void => {
    if (!row) return;
    if (event.type === "error" && event.recoverable) row.recoveries[recoveryKind(event.code)] = (row.recoveries[recoveryKind(event.code)] ?? 0) + 1;
  };
  // The host starts with the first request, so its pid is read when measuring.
  const hostPid = (): number | undefined => (engine as { hostPid?: number }).hostPid;
  let rssAt10 = 0;
  let rssLast = 0;
  let fileBytes = 0;
  try {
    for (let t = 0; t < turns; t++) {
      row = { ms: 0, rounds: 0, replies: 0, valid: 0, promptTokens: 0, evaluatedTokens: 0, unheldTokens: 0, recoveries: {}, trims: 0 };
      const trimmedBefore = headless.agent.conversation.trim?.throughTurnId;
      const r = await headless.agent.runTurn(SCRIPT[t % SCRIPT.length], { onEvent });
      // A trim moves the conversation's trimmed-through mark (old turns left the prompt, summarized).
      if (headless.agent.conversation.trim?.throughTurnId !== trimmedBefore) row.trims++;
      row.ms = r.ms;
      row.rounds = r.rounds;
      rows.push(row);
      if ((t + 1) % 10 === 0) {
        const block = rows.slice(t - 9, t + 1);
        const host = rssMb(hostPid()) ?? 0;
        const agent = rssMb(process.pid) ?? 0;
        fileBytes = new TextEncoder().encode(JSON.stringify(headless.agent.conversation.toJSON())).length;
        if (t + 1 === 10) rssAt10 = host + agent;
        rssLast = host + agent;
        const recoveries: Record<string, number> = { not_envelope: 0, refused_call: 0, repeat: 0, no_progress: 0 };
        for (const b of block) for (const [k, v] of Object.entries(b.recoveries)) recoveries[k] += v;
        const sum = (f: (b: TurnRow) => number): number => block.reduce((n, b) => n + f(b), 0);
        blocks.push({
          turns: `${t - 8}-${t + 1}`,
          valid_envelopes: `${sum((b) => b.valid)}/${sum((b) => b.replies)}`,
          recoveries,
          rounds_per_turn: round1(sum((b) => b.rounds) / 10),
          turn_ms_median: Math.round(median(block.map((b) => b.ms))),
          turn_ms_max: Math.max(...block.map((b) => b.ms)),
          prompt_tokens_per_turn: Math.round(sum((b) => b.promptTokens) / 10),
          evaluated_tokens_per_turn: Math.round(sum((b) => b.evaluatedTokens) / 10),
          unheld_prompt_tokens_per_turn: Math.round(sum((b) => b.unheldTokens) / 10),
          context_trims: sum((b) => b.trims),
          host_rss_mb: host,
          agent_rss_mb: agent,
          conversation_bytes: fileBytes,
        });
        log(JSON.stringify(blocks.at(-1)));
      }
    }
  } finally {
    await headless.close();
    rmSync(vault, { recursive: true, force: true });
  }
  const medians = blocks.map((b) => b.turn_ms_median as number);
  const evaluated = rows.reduce((n, r) => n + r.evaluatedTokens, 0);
  const unheld = rows.reduce((n, r) => n + r.unheldTokens, 0);
  return {
    turns: rows.length,
    model: headless.modelPath || "test model",
    blocks,
    valid_all: rows.every((r) => r.valid === r.replies),
    last_over_second_median: medians.length >= 2 && medians[1] > 0 ? Math.round((medians.at(-1)! / medians[1]) * 100) / 100 : null,
    rss_growth_mb: round1(rssLast - rssAt10),
    file_bytes: fileBytes,
    evaluated_tokens: evaluated,
    unheld_prompt_tokens: unheld,
    evaluated_within_held_claim: evaluated <= unheld * 1.01,
    summarized_turns: headless.agent.conversation.trim?.summaries.length ?? 0,
  };
}
