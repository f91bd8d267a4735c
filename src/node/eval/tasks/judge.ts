/**
 * Prose checks (a summary's quality), judged by a model the user names: it reads the request, the answer and the
 * criterion and replies "yes" or "no" under a two-word grammar. Without a judge these checks are reported as skipped.
 */
import type { Engine } from "../../../core/ports/engine";

export interface ProseJudge {
  /** True when the answer meets the criterion. */
  judge(item: { request: string; answer: string; criterion: string }): Promise<boolean>;
}

/** A judge over an engine (a GGUF through the host, or a server). */
export function engineJudge(engine: Engine): ProseJudge {
  return {
    async judge({ request, answer, criterion }) {
      const result = await engine.generate({
        messages: [
          { role: "system", content: "You grade an assistant's answer against one criterion. Reply with yes or no only." },
          { role: "user", content: `Request:\n${request}\n\nAnswer:\n${answer || "(no answer)"}\n\nCriterion: ${criterion}\n\nDoes the answer meet the criterion?` },
        ],
        grammar: 'root ::= "yes" | "no"',
        maxTokens: 4,
        temperature: 0,
        seed: 1,
      });
      return result.text.trim() === "yes";
    },
  };
}
