/**
 * One jump of forced-text generation: the text the grammar forces from a walker position, tokenized the way the
 * model would write it after the sampled token (healing the boundary where it can), with the last token left to
 * the model where a longer token could run on from it, and never past the token cap.
 */
import type { LlamaModel, Token } from "node-llama-cpp";
import type { GbnfWalker, WalkPosition } from "../core/grammar/gbnf-walker";
import type { ChoiceMasks } from "./choice-masks";

/** Forced tokens to evaluate next, the text they add after the sampled token's, and the walker position after them. */
export interface JumpPlan {
  tokens: Token[];
  added: string;
  pos: WalkPosition;
}

/** What a jump is planned with. */
export interface JumpContext {
  model: LlamaModel;
  walker: GbnfWalker;
  masks?: ChoiceMasks;
  /** Tokens just before the undecoded ones, so a piece decodes as a continuation. */
  context: Token[];
}

/** Forced text taken in one jump (longer runs continue on the next step). */
const MAX_FORCED_CHARS = 256;

/** Tokens whose text is exactly `text` when they follow `context`, or null when the tokenizer cannot say so. */
export function tokenizeExactly(model: LlamaModel, text: string, context: Token[]): Token[] | null {
  const tokens = model.tokenize(text, false, "trimLeadingSpace");
  if (tokens.length === 0 || model.detokenize(tokens, false, context) !== text) return null;
  return tokens;
}

/**
 * Forced text from `from`, as tokens that follow `lead` (the sampled token's text, or "" at the
 * start): the tokens to evaluate, the text they add after `lead`, and the walker position after it.
 */
export function planJump(ctx: JumpContext, from: WalkPosition, lead: string, leadToken: Token | undefined, limit: number, heal: boolean): JumpPlan | null {
  const forced = ctx.walker.forcedText(from, MAX_FORCED_CHARS);
  if (!forced.text) return null;
  const tokens = jumpTokens(ctx, forced.text, lead, leadToken, heal);
  if (!tokens) return null;
  const take = Math.min(tokensToTake(ctx, tokens, from, forced, lead), limit);
  let text = lead + forced.text;
  let after = forced.pos;
  if (take < tokens.length) {
    if (take === 0) return null;
    const kept = ctx.model.detokenize(tokens.slice(0, take), false, ctx.context);
    const back = kept.length >= lead.length && kept.startsWith(lead) ? ctx.walker.advance(from, kept.slice(lead.length)) : null;
    if (!back) return null;
    text = kept;
    after = back;
  }
  return { tokens: tokens.slice(0, take), added: text.slice(lead.length), pos: after };
}

/** The sampled text and the forced text as tokens: healed into one tokenization where allowed, else after the sampled token. */
function jumpTokens(ctx: JumpContext, forcedText: string, lead: string, leadToken: Token | undefined, heal: boolean): Token[] | null {
  const { model, context } = ctx;
  let tokens = heal || leadToken === undefined ? tokenizeExactly(model, lead + forcedText, context) : null;
  if (tokens && leadToken !== undefined && lead && tokens[0] !== leadToken && !model.detokenize([tokens[0]], false, context).startsWith(lead)) {
    // The healed first token must cover the sampled text, or the sampled token is kept as is.
    tokens = null;
  }
  if (!tokens && leadToken !== undefined) {
    const rest = tokenizeExactly(model, forcedText, [...context, leadToken]);
    tokens = rest ? [leadToken, ...rest] : null;
  }
  return tokens;
}

/**
 * How many of the tokens to take: all, but the last is left to the model where a longer token could run on
 * from it (and the grammar does not end there), so the model picks the boundary.
 */
function tokensToTake(ctx: JumpContext, tokens: Token[], from: WalkPosition, forced: { text: string; pos: WalkPosition }, lead: string): number {
  let take = tokens.length;
  if (!ctx.walker.complete(forced.pos) && tokens.length > 1) {
    const kept = ctx.model.detokenize(tokens.slice(0, -1), false, ctx.context);
    const back = kept.startsWith(lead) ? ctx.walker.advance(from, kept.slice(lead.length)) : null;
    const last = lead.length + forced.text.length - kept.length;
    if (back && (ctx.masks?.longestAdmitted(back) ?? Infinity) > last) take--;
  }
  return take;
}
