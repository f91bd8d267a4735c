/**
 * Asks the engine for an edit proposal on one region under the edit grammar, streaming partial proposals as the reply
 * grows. Pure: the engine comes in as the port.
 */
import type { Engine } from "../ports/engine";
import { compileEditGrammar, type EditGrammarOptions } from "./edit-grammar";
import { partialReply } from "./partial-reply";
import { changesBetween, editsProposal, proposalFromReply, EditReplyError, type EditProposal, type EditTarget } from "./proposal";
import { splitUnits } from "./units";

export interface ProposeOptions {
  /** Cap on generated tokens; default 4,096 (or the grammar's bound, when lower). */
  maxTokens?: number;
  temperature?: number;
  seed?: number;
  signal?: AbortSignal;
  grammar?: EditGrammarOptions;
  /** Called with the proposal as it stands while the reply streams (at most every `progressMs`). */
  onProgress?: (partial: EditProposal) => void;
  /** Least time between two progress calls; default 60 ms. */
  progressMs?: number;
  /** Clock for the progress throttle; default Date.now. */
  now?: () => number;
}

export interface ProposeResult extends EditProposal {
  /** The model's reply as generated. */
  reply: string;
  /** Milliseconds from the end of generation to the proposal (parse and diff). */
  diffMs: number;
  tokensOut: number;
}

/** The messages that ask for the edit: the instruction and the region, the format said in words. */
export function editMessages(region: string, instruction: string): { role: "system" | "user"; content: string }[] {
  return [
    {
      role: "system",
      content:
        "You edit one part of a Markdown note as the user asks. Reply with JSON only. Either " +
        '{"edits":[{"find":"<one whole sentence or line of the text, exactly as written>","replace":"<its new text>"}]} ' +
        'with the sentences in the order they appear, each at most once, or {"rewrite":"<the whole new text>"}. ' +
        "Change only what the instruction asks for and keep the Markdown formatting.",
    },
    { role: "user", content: `Instruction: ${instruction}\n\nText to edit:\n<<<\n${region}\n>>>` },
  ];
}

export async function proposeEdit(engine: Engine, target: EditTarget, instruction: string, options: ProposeOptions = {}): Promise<ProposeResult> {
  const region = target.note.slice(target.from, target.to);
  const units = splitUnits(region);
  const grammar = compileEditGrammar(region, units, options.grammar);
  const now = options.now ?? Date.now;
  let text = "";
  let last = -Infinity;
  const onText = options.onProgress
    ? (chunk: string) => {
        text += chunk;
        if (now() - last < (options.progressMs ?? 60)) return;
        last = now();
        const partial = partialProposal(target, units, text);
        if (partial) options.onProgress?.(partial);
      }
    : undefined;
  const result = await engine.generate({
    messages: editMessages(region, instruction),
    grammar: grammar.gbnf,
    jsonSchema: grammar.jsonSchema,
    maxTokens: Math.min(options.maxTokens ?? 4096, grammar.maxBytes),
    temperature: options.temperature ?? 0.2,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    signal: options.signal,
    onText,
  });
  if (result.stopReason === "abort") throw new EditReplyError("The edit was stopped before the model finished.");
  const started = now();
  const proposal = proposalFromReply(target, result.text, units);
  return { ...proposal, reply: result.text, diffMs: now() - started, tokensOut: result.tokensOut };
}

/** The proposal the reply so far supports: completed edits exactly; a rewrite's changes up to shortly before its end. */
function partialProposal(target: EditTarget, units: ReturnType<typeof splitUnits>, text: string): EditProposal | null {
  const partial = partialReply(text);
  if (!partial) return null;
  try {
    if ("edits" in partial.reply) return editsProposal(target, units, partial.reply.edits);
    const so = partial.reply.rewrite;
    // The rewrite's tail is not written yet: keep the changes that end well before what has been generated.
    const changes = changesBetween(target, so).filter((c) => c.to - target.from + (c.insert.length - c.deleted.length) < so.length - 24 && c.to < target.to);
    return { target, proposed: so, changes };
  } catch {
    return null;
  }
}
