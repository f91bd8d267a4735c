/**
 * The model list's quick self-check: load the chosen model and generate one token under a one-token
 * grammar. It proves the file loads, its chat template renders, grammar sampling works on its
 * vocabulary and the reply ends where the grammar does — in a second or two, before a real turn.
 */
import type { Engine } from "../../core/ports/engine";

/** What the check found. */
export interface SelfCheckResult {
  ok: boolean;
  /** One sentence for the list. */
  detail: string;
}

/** The grammar whose only reply is "{": the first token of every envelope. */
export const SELF_CHECK_GRAMMAR = 'root ::= "{"';

export async function runSelfCheck(engine: Engine, signal?: AbortSignal): Promise<SelfCheckResult> {
  const started = Date.now();
  try {
    const info = await engine.modelInfo();
    const reply = await engine.generate({
      messages: [{ role: "user", content: "Start a JSON object." }],
      grammar: SELF_CHECK_GRAMMAR,
      maxTokens: 4,
      temperature: 0,
      signal,
    });
    const ms = Date.now() - started;
    const format = info.chatWrapper ? ` with the ${info.chatWrapper} chat format` : "";
    if (reply.stopReason === "abort") return { ok: false, detail: "The self-check was cancelled." };
    if (reply.text !== "{" || reply.stopReason !== "eos" || reply.utf8Valid === false) {
      return { ok: false, detail: `Self-check failed: the one-token grammar reply was ${JSON.stringify(reply.text)} (${reply.stopReason}) instead of "{".` };
    }
    return { ok: true, detail: `Self-check passed${format} in ${(ms / 1000).toFixed(1)} s.` };
  } catch (error) {
    return { ok: false, detail: `Self-check failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
