/**
 * Cheap masks for small choices (a status value, a tool name, an enum, `true`/`false`/`null`, the
 * keys of an object, the punctuation after a value). Where the grammar admits only a few next
 * characters, the tokens it admits are found once by walking the vocabulary's tokens that start with
 * those characters through our own grammar walker, and kept by position. They reach llama.cpp as a
 * logit bias that lifts exactly those tokens far above the rest: the same distribution as masking
 * (relative odds among admitted tokens are unchanged), but the sampled token then passes llama.cpp's
 * one-token grammar check, so the full-vocabulary grammar pass (the cost that grows with the
 * vocabulary) is skipped. llama.cpp's grammar still decides: if a lifted token were wrong it would
 * reject it and mask the full vocabulary as before.
 *
 * Free text (inside a JSON string: a negated class admits almost everything) gets the opposite, a
 * ban of the few tokens the grammar would reject there: tokens no JSON string can hold (raw control
 * characters such as newlines, bad escapes, a closing quote followed by a letter) and, near the
 * string's length cap, plain tokens longer than the room left (or, where that list would be the
 * longer one, a lift of the tokens that may still fit). A rejected sample inside a string is the most
 * expensive case of all (llama.cpp walks every token of the vocabulary through the string's
 * characters), so these bans keep string content at free-sampling speed too. Every bias costs per
 * step in proportion to its entries (node-llama-cpp copies it into the sampler at each step: about
 * 0.07 µs an entry at 152k tokens, so a 140,000-entry ban measured 9.6 ms against 2.2 ms for a free
 * step), which is why each list is the shorter of the two forms, and choices that admit a large
 * share of the vocabulary get no mask at all.
 */
import type { LlamaModel, Token, TokenBias } from "node-llama-cpp";
import { llamaRuntime } from "./llama-runtime";
import type { GbnfWalker, WalkPosition } from "../../core/grammar/gbnf-walker";
import { TokenTexts } from "./token-texts";

/** Distinct next characters beyond which a position counts as free text. */
const MAX_CHOICE_CHARS = 64;
/** Characters walked for one mask before giving up (a choice that opens onto free text, e.g. `"` + any string). */
const MAX_WALK_STEPS = 200_000;
/** Logit added to admitted tokens: exp(-1000) is zero in float32, so nothing else is ever sampled. */
const LIFT = 1000;
/** Masks kept per grammar. */
const MAX_MASKS = 4096;
/** Room left in a string beyond which no length ban is needed (longer tokens are very rare). */
const MAX_PROBED_ROOM = 32;
/** A code point every plain JSON string admits, used to measure the room left before the cap. */
const PROBE = 0x61;
/**
 * Admitted tokens (as a share of the vocabulary) beyond which a choice gets no mask. node-llama-cpp
 * copies a bias into the sampler at every step, entry by entry, so lifting a large share (a
 * character class such as `[a-z ]`) costs more per step than llama.cpp's own check of the sampled
 * token; measured through the host on the 8,192-token test model, lifting `[a-z ]` made a 256-token
 * reply 1.5× slower than llama.cpp's grammar alone.
 */
const MAX_MASK_SHARE = 1 / 8;

/** A small choice's mask, and the longest admitted token text. */
interface ChoiceMask {
  bias: TokenBias;
  longest: number;
}

export class ChoiceMasks {
  private readonly masks = new Map<string, ChoiceMask | null>();
  private readonly texts: TokenTexts;
  /** String-content bans by room left (index MAX_PROBED_ROOM + 1: room unknown or ample). */
  private readonly stringBans: Array<TokenBias | undefined> = [];
  /** Entries shared by the string bans, and how many of them every string ban holds. */
  private stringPairs: Array<[Token, number]> | undefined;
  private stringPairsFixed = 0;
  /** Entries shared by the string lifts (near a length cap), and how many of them every lift holds. */
  private liftPairs: Array<[Token, number]> | undefined;
  private liftPairsFixed = 0;
  /** Room left by string position. */
  private readonly rooms = new Map<string, number>();
  /** How far ahead anything cached here looks: the longest token text, or the room probe. */
  private readonly horizon: number;
  /** Walker steps spent computing masks and rooms (a measure of the work the masks cost). */
  walkSteps = 0;

  constructor(
    private readonly model: LlamaModel,
    private readonly walker: GbnfWalker,
    /** Bans that hold at every step (split characters); kept inside each mask. */
    private readonly baseBias: TokenBias | null,
  ) {
    this.texts = TokenTexts.of(model);
    this.horizon = Math.max(this.texts.longest, MAX_PROBED_ROOM + 1);
  }

  /** Masks computed so far (including positions found to be free text). */
  get size(): number {
    return this.masks.size;
  }

  /** The mask for this position, or undefined where the choice is large (free text) or unknown. */
  at(pos: WalkPosition): TokenBias | undefined {
    // Free text is recognized from the next characters alone; only choices are worth a key.
    if (this.walker.nextChars(pos, MAX_CHOICE_CHARS) === null) return this.inString(pos);
    return this.choice(pos)?.bias;
  }

  /**
   * The longest text (UTF-16 units) of a token admitted at this small choice; Infinity where unknown
   * (free text, or no mask). The forced-text generator leaves a boundary to the model only when a
   * token could run across it.
   */
  longestAdmitted(pos: WalkPosition): number {
    if (this.walker.nextChars(pos, MAX_CHOICE_CHARS) === null) return Infinity;
    return this.choice(pos)?.longest ?? Infinity;
  }

  private choice(pos: WalkPosition): ChoiceMask | null {
    const key = this.walker.key(pos, this.horizon);
    let mask = this.masks.get(key);
    if (mask === undefined) {
      mask = this.compute(pos);
      if (this.masks.size >= MAX_MASKS) this.masks.clear();
      this.masks.set(key, mask);
    }
    return mask;
  }

  /**
   * Admitted tokens at this position (exposed for tests), or null for free text; the walk stops once
   * more than `most` tokens are admitted (the choice is then too large for a mask).
   */
  admitted(pos: WalkPosition, most = Infinity): Token[] | null {
    const first = this.walker.nextChars(pos, MAX_CHOICE_CHARS);
    if (first === null) return null;
    const texts = this.texts.texts;
    const out: Token[] = [];
    let steps = 0;
    for (const cp of first) {
      const ids = this.texts.startingWith(cp);
      // Tokens are sorted by text, so each shares a prefix with the one before: reuse its positions.
      const path: WalkPosition[] = [pos];
      let prev = "";
      for (const id of ids) {
        const text = texts[id]!;
        let common = 0;
        const limit = Math.min(prev.length, text.length, path.length - 1);
        while (common < limit && text.charCodeAt(common) === prev.charCodeAt(common)) common++;
        // Stay on a code point boundary (a surrogate pair is one step).
        if (common > 0 && isLowSurrogate(text.charCodeAt(common))) common--;
        path.length = common + 1;
        let p = path[common];
        let alive = !this.walker.dead(p);
        for (let i = common; alive && i < text.length; ) {
          const c = text.codePointAt(i)!;
          const width = c > 0xffff ? 2 : 1;
          p = this.walker.step(p, c);
          this.walkSteps++;
          if (++steps > MAX_WALK_STEPS) return null;
          alive = !this.walker.dead(p);
          for (let k = 0; k < width; k++) path.push(p);
          i += width;
        }
        // A dead prefix kills every token below it; the path still records where it died.
        while (path.length < text.length + 1) path.push(p);
        prev = text;
        if (alive && out.push(id as Token) > most) return out;
      }
    }
    return out;
  }

  /** The ban inside string content: tokens no string admits, and plain tokens longer than the room left. */
  private inString(pos: WalkPosition): TokenBias {
    const room = this.roomLeft(pos);
    // No room for the probe: not plain string content (a pattern), so only the universal bans apply.
    const index = room === 0 || room > MAX_PROBED_ROOM ? MAX_PROBED_ROOM + 1 : room;
    let bias = this.stringBans[index];
    if (!bias) {
      const strings = this.texts.stringTokens;
      if (!this.stringPairs) {
        // One list for every room size: the bans, then plain tokens longest first (a room's ban is a prefix).
        const pairs: Array<[Token, number]> = [...biasEntries(this.baseBias)];
        this.stringPairsFixed = pairs.length + strings.never.length;
        for (const t of strings.never) pairs.push([t as Token, -Infinity]);
        for (const t of strings.plainByLength) pairs.push([t as Token, -Infinity]);
        this.stringPairs = pairs;
      }
      const longer = index > MAX_PROBED_ROOM || index >= strings.plainLonger.length ? 0 : strings.plainLonger[index];
      const banCount = this.stringPairsFixed + longer;
      // Near the cap most plain tokens are too long: lifting the rest is then the shorter list. The
      // lift holds every token the string may take there (short plain text, and every token whose
      // fit depends on the grammar around the string), so the odds among admitted tokens stay those
      // of masking; a lifted token the grammar refuses is still refused by llama.cpp.
      const liftCount = this.stringPairsFixed - strings.never.length + strings.maybe.length + strings.plainByLength.length - longer;
      if (longer > 0 && liftCount < banCount) {
        if (!this.liftPairs) {
          const pairs: Array<[Token, number]> = [...biasEntries(this.baseBias)];
          for (const t of strings.maybe) pairs.push([t as Token, LIFT]);
          this.liftPairsFixed = pairs.length;
          for (let i = strings.plainByLength.length - 1; i >= 0; i--) pairs.push([strings.plainByLength[i] as Token, LIFT]);
          this.liftPairs = pairs;
        }
        bias = listBias(this.model, this.liftPairs, this.liftPairsFixed + strings.plainByLength.length - longer);
      } else bias = listBias(this.model, this.stringPairs, banCount);
      this.stringBans[index] = bias;
    }
    return bias;
  }

  /** Characters a string at this position may still take, up to MAX_PROBED_ROOM + 1 (0: the probe is not admitted). */
  private roomLeft(pos: WalkPosition): number {
    // The probe reads at most MAX_PROBED_ROOM + 1 characters, so positions alike that far share a room.
    const key = this.walker.key(pos, MAX_PROBED_ROOM + 1);
    let room = this.rooms.get(key);
    if (room === undefined) {
      let p = pos;
      for (room = 0; room <= MAX_PROBED_ROOM; room++) {
        const q = this.walker.step(p, PROBE);
        this.walkSteps++;
        if (this.walker.dead(q)) break;
        p = q;
      }
      if (this.rooms.size >= MAX_MASKS * 4) this.rooms.clear();
      this.rooms.set(key, room);
    }
    return room;
  }

  private compute(pos: WalkPosition): ChoiceMask | null {
    const limit = Math.floor(this.texts.texts.length * MAX_MASK_SHARE);
    const tokens = this.admitted(pos, limit);
    if (tokens === null || tokens.length === 0 || tokens.length > limit) return null;
    const bias = new (llamaRuntime().TokenBias)(this.model.tokenizer);
    const bans = biasEntries(this.baseBias);
    for (const [t, v] of bans) bias.set(t, { logit: v });
    let longest = 0;
    for (const t of tokens) {
      if (bans.has(t)) continue;
      bias.set(t, { logit: LIFT });
      longest = Math.max(longest, this.texts.texts[t]!.length);
    }
    return { bias, longest };
  }
}

/**
 * The entries of a TokenBias. node-llama-cpp (pinned at 3.21.1) keeps them in `_biases` and offers no
 * public way to read or merge them; a missing field reads as no entries.
 */
export function biasEntries(bias: TokenBias | null | undefined): Map<Token, number> {
  return (bias as unknown as { _biases?: Map<Token, number> } | null | undefined)?._biases ?? new Map<Token, number>();
}

/**
 * A TokenBias over the first `count` entries of a shared list. node-llama-cpp only iterates `_biases`
 * (once per step, to hand the entries to llama.cpp), so string bans of every room size share one list
 * and are iterated without allocating: a Map of 100k entries per room size would cost memory, and
 * iterating a Map allocates an entry per token per step.
 */
function listBias(model: LlamaModel, pairs: ReadonlyArray<[Token, number]>, count: number): TokenBias {
  const bias = new (llamaRuntime().TokenBias)(model.tokenizer);
  const iterable: Iterable<[Token, number]> = {
    [Symbol.iterator]() {
      let i = 0;
      const result = { value: undefined as unknown as [Token, number], done: false };
      return {
        next() {
          if (i < count) result.value = pairs[i++];
          else result.done = true;
          return result;
        },
      };
    },
  };
  (bias as unknown as { _biases: Iterable<[Token, number]> })._biases = iterable;
  return bias;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
