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
import type { GbnfWalker, WalkPosition } from "../core/grammar/gbnf-walker";
import { TokenTexts, type RunTokens } from "./token-texts";
import { sealBias } from "./sealed-bias";

/** Distinct next characters beyond which a position counts as free text. */
const MAX_CHOICE_CHARS = 64;
/** Distinct next characters beyond which free text is not checked as a run of one class (a negated class is always beyond). */
const MAX_RUN_CHARS = 1024;
/** Characters a run's room is followed for before the position counts as no run (GBNF repetition bounds stay below 2000). */
const MAX_RUN_WALK = 4096;
/** Characters walked for one mask before giving up (a choice that opens onto free text, e.g. `"` + any string). */
const MAX_WALK_STEPS = 200_000;
/** Logit added to admitted tokens: exp(-1000) is zero in float32, so nothing else is ever sampled. */
const LIFT = 1000;
/** Masks kept per grammar. */
const MAX_MASKS = 4096;
/** Distinct next characters an exact mask (inside grounded rules) walks at most. */
const MAX_EXACT_CHARS = 4096;
/** Characters walked for one exact mask before giving up (every token of a 262k vocabulary, a few steps each). */
const MAX_EXACT_WALK_STEPS = 5_000_000;
/** Characters tried where the next characters are too many to list (free text): printable ASCII. */
const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i);
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

/**
 * Quote and backslash tokens longer than this are not checked per string position (the longest
 * measured: 8 characters on Qwen2.5 and Gemma 4); they stay allowed and llama.cpp decides.
 */
const MAX_CHECKED_CHARS = 16;
/** Distinct refused sets kept per grammar (each holds lists of about one entry per vocabulary token). */
const MAX_REFUSED_SETS = 16;

/** Keys and logits of a bias list; a bias over its first entries hands llama.cpp views of them. */
interface PairList {
  keys: Uint32Array;
  values: Float32Array;
}

/** A string position's refused tokens (and the same as text, the key of their shared lists). */
interface RefusedSet {
  id: number;
  tokens: Int32Array;
  content: string;
}

interface StringLists {
  ban: PairList;
  /** Entries every ban holds (then plain tokens longest first). */
  banFixed: number;
  lift?: PairList;
  /** Entries every lift holds (then plain tokens shortest first). */
  liftFixed: number;
}

const NO_REFUSALS: RefusedSet = { id: 0, tokens: new Int32Array(0), content: "" };

/** What a refused set's lists hold: the string bans and lifts, and the class runs' lifts by class. */
interface SharedLists extends StringLists {
  runs: Map<string, PairList & { fixed: number }>;
}
/**
 * Lists are shared by every grammar of a model with the same universal bans (keyed by that bias, or
 * by the model's token texts without one) and the same refused set: each holds about one entry per
 * vocabulary token (2 MB at 262k tokens), and the host keeps the masks of 16 grammars.
 */
const sharedLists = new WeakMap<object, Map<string, SharedLists>>();
const MAX_SHARED_LISTS = 12;

/** A small choice's mask, and the longest admitted token text. */
interface ChoiceMask {
  bias: TokenBias;
  longest: number;
}

export class ChoiceMasks {
  private readonly masks = new Map<string, ChoiceMask | null>();
  private readonly texts: TokenTexts;
  /** String-content biases by refused set and room left (room MAX_PROBED_ROOM + 1: unknown or ample). */
  private readonly stringBans = new Map<number, TokenBias>();
  /** The refused set by string position (up to what the checked tokens can read), and the distinct sets. */
  private readonly refusals = new Map<string, RefusedSet>();
  private readonly refusedSets = new Map<string, RefusedSet>();
  /** `maybe` tokens with text, sorted by text, that are checked at each string position, and how far they read. */
  private readonly checkedMaybe: Int32Array;
  private readonly maybeHorizon: number;
  /** Class runs: the room left by position, the lift lists by class and refused set, the biases by list and fit. */
  private readonly runRooms = new Map<string, number>();
  private readonly runBiases = new Map<string, TokenBias>();
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
    const texts = this.texts.texts;
    const checked = [...this.texts.stringTokens.maybe].filter((t) => texts[t] !== null && texts[t].length <= MAX_CHECKED_CHARS);
    checked.sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b));
    this.checkedMaybe = Int32Array.from(checked);
    this.maybeHorizon = checked.reduce((m, t) => Math.max(m, texts[t]!.length), 0) + 1;
  }

  /** Masks computed so far (including positions found to be free text). */
  get size(): number {
    return this.masks.size;
  }

  /** The mask for this position, or undefined where the choice is large (free text) or unknown. */
  at(pos: WalkPosition): TokenBias | undefined {
    // Free text is recognized from the next characters alone; only choices are worth a key.
    if (this.walker.nextChars(pos, MAX_CHOICE_CHARS) === null) return this.run(pos) ?? this.inString(pos);
    return this.choice(pos)?.bias;
  }

  /**
   * Inside a run of characters from one class too large for a choice mask (a pattern's
   * `[A-Za-z0-9_/-]{1,64}`), the lift of exactly the tokens the grammar admits: tokens made only of
   * the class's characters that fit the room left, and the quote and backslash tokens it does not
   * refuse. Without it, most tokens of the vocabulary pass the string bans there, and on random
   * weights nearly every step was rejected by llama.cpp and paid its full-vocabulary pass (measured
   * 18–35 ms a step on Qwen2.5 in a `tags` array, against 2.2 for a free step). Undefined where the
   * position is not such a run (a negated class: plain string content).
   */
  private run(pos: WalkPosition): TokenBias | undefined {
    const chars = runChars(this.walker.nextChars(pos, MAX_RUN_CHARS));
    if (chars === null || chars.length === 0) return undefined;
    const tokens = this.texts.runTokens(chars);
    if (tokens.ids.length === 0) return undefined;
    const room = this.runRoom(pos, chars, tokens);
    if (room <= 0) return undefined;
    const refused = this.refusedHere(pos);
    // Run tokens are shortest first: those that fit are a prefix.
    let fit = 0;
    for (let hi = tokens.lengths.length; fit < hi; ) {
      const mid = (fit + hi) >> 1;
      if (tokens.lengths[mid] <= room) fit = mid + 1;
      else hi = mid;
    }
    const biasKey = `${tokens.sig}|${refused.id}|${fit}`;
    let bias = this.runBiases.get(biasKey);
    if (!bias) {
      const runs = this.sharedFor(refused).runs;
      let list = runs.get(tokens.sig);
      if (!list) {
        const strings = this.texts.stringTokens;
        const refusedSet = new Set(refused.tokens);
        const built = new ListBuilder();
        for (const [t, v] of biasEntries(this.baseBias)) built.add(t, v);
        // Pieces of split characters are lifted only where the class holds characters beyond ASCII.
        for (const t of strings.maybe) if (!refusedSet.has(t) && (this.texts.texts[t] !== null || chars[chars.length - 1] >= 0x80)) built.add(t, LIFT);
        const fixed = built.length;
        for (const t of tokens.ids) built.add(t, LIFT);
        list = { ...built.build(), fixed };
        if (runs.size >= MAX_REFUSED_SETS) runs.clear();
        runs.set(tokens.sig, list);
      }
      bias = listBias(this.model, list, list.fixed + fit);
      if (this.runBiases.size >= MAX_MASKS) this.runBiases.clear();
      this.runBiases.set(biasKey, bias);
    }
    return bias;
  }

  /**
   * Characters of the class a run takes from here, capped at its longest token; -1 where the
   * position is not a run: somewhere along it the next characters stop being exactly the class (a
   * closing quote or an escape may stand beside it), or two of its characters lead to positions that
   * can be told apart. The room depends on no more than `longest + 1` characters ahead, so it is kept
   * under the walker's key for that horizon; the walk goes on to the run's end, to a known position,
   * or to a position it has seen (then every position of the loop has at least `longest` left: a
   * bounded repetition's middle counts share a key), and sets the room of every position it passed.
   */
  private runRoom(pos: WalkPosition, chars: number[], tokens: RunTokens): number {
    const longest = tokens.longest;
    const horizon = longest + 1;
    const keys: string[] = [];
    const seen = new Map<string, number>();
    let q = pos;
    /** The room at position `terminal` of the walk (-1: not a run). */
    let result = -1;
    let terminal = 0;
    for (let m = 0; m <= MAX_RUN_WALK; m++) {
      const key = `${tokens.sig}|${this.walker.key(q, horizon)}`;
      const known = this.runRooms.get(key) ?? (seen.has(key) ? longest : undefined);
      terminal = m;
      if (known !== undefined) {
        result = known;
        break;
      }
      keys.push(key);
      seen.set(key, m);
      const here = m === 0 ? chars : runChars(this.walker.nextChars(q, MAX_RUN_CHARS));
      if (here === null || (here.length > 0 && here.join(",") !== tokens.sig)) break;
      if (here.length === 0) {
        result = 0;
        break;
      }
      const next = this.walker.step(q, here[0]);
      this.walkSteps++;
      const nextKey = this.walker.key(next, horizon);
      let uniform = true;
      for (let j = 1; uniform && j < here.length; j++) {
        uniform = this.walker.key(this.walker.step(q, here[j]), horizon) === nextKey;
        this.walkSteps++;
      }
      if (!uniform) break;
      q = next;
    }
    const roomAt = (j: number) => (result < 0 ? -1 : Math.min(longest, result + (terminal - j)));
    if (this.runRooms.size + keys.length > MAX_MASKS * 4) this.runRooms.clear();
    keys.forEach((key, j) => this.runRooms.set(key, roomAt(j)));
    return roomAt(0);
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
    const out: Token[] = [];
    const budget = { steps: MAX_WALK_STEPS };
    for (const cp of first) {
      const ended = this.aliveSorted(pos, this.texts.startingWith(cp), out, most, budget);
      if (ended === "budget") return null;
      if (ended === "most") return out;
    }
    return out;
  }

  /**
   * Pushes the tokens of `ids` (sorted by text) that the grammar admits from `pos` onto `out`, in order, until more
   * than `most` are there.
   */
  private aliveSorted(pos: WalkPosition, ids: ArrayLike<number>, out: Token[], most: number, budget: { steps: number }): "done" | "most" | "budget" {
    const ended = this.walkSorted(pos, ids, (id) => out.push(id as Token) <= most, budget);
    return ended === "stopped" ? "most" : ended;
  }

  /**
   * Walks tokens sorted by text from `pos`, in order: `admitted` is told each token the grammar admits (it returns
   * false to stop the walk), `refused` (when given) each token it refuses. Tokens sorted by text share a prefix with the
   * one before, so its positions are reused. A text refused at some character refuses every token that starts with the
   * same characters: those follow it in the sorted list and are passed over with one binary search (told to `refused`
   * without a walk), so the walk costs in proportion to the admitted tokens and the refused prefixes, not to the
   * vocabulary (a path tree's position on a 152k vocabulary walked every token that starts with an admitted character,
   * one by one). Returns "stopped" when `admitted` stopped it, "budget" when the walk budget ran out.
   */
  private walkSorted(pos: WalkPosition, ids: ArrayLike<number>, admitted: (id: number) => boolean, budget: { steps: number } = { steps: MAX_WALK_STEPS }, refused?: (id: number) => void): "done" | "stopped" | "budget" {
    const texts = this.texts.texts;
    if (this.walker.dead(pos)) {
      if (refused) for (let k = 0; k < ids.length; k++) refused(ids[k]);
      return "done";
    }
    const path: WalkPosition[] = [pos];
    let prev = "";
    for (let k = 0; k < ids.length; ) {
      const id = ids[k];
      const text = texts[id]!;
      let common = 0;
      const limit = Math.min(prev.length, text.length, path.length - 1);
      while (common < limit && text.charCodeAt(common) === prev.charCodeAt(common)) common++;
      // Stay on a code point boundary (a surrogate pair is one step).
      if (common > 0 && isLowSurrogate(text.charCodeAt(common))) common--;
      path.length = common + 1;
      let p = path[common];
      let deadAt = -1;
      for (let i = common; i < text.length; ) {
        const c = text.codePointAt(i)!;
        const width = c > 0xffff ? 2 : 1;
        p = this.walker.step(p, c);
        this.walkSteps++;
        if (--budget.steps < 0) return "budget";
        i += width;
        if (this.walker.dead(p)) {
          deadAt = i;
          break;
        }
        for (let w = 0; w < width; w++) path.push(p);
      }
      prev = text;
      if (deadAt < 0) {
        if (!admitted(id)) return "stopped";
        k++;
        continue;
      }
      // Pass over every later token that starts with the refused prefix (they are contiguous in text order).
      const prefix = text.slice(0, deadAt);
      let lo = k + 1;
      let hi = ids.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (texts[ids[mid]]!.startsWith(prefix)) lo = mid + 1;
        else hi = mid;
      }
      if (refused) for (let j = k; j < lo; j++) refused(ids[j]);
      k = lo;
    }
    return "done";
  }

  /**
   * The bias inside string content: tokens no string admits, the quote and backslash tokens this
   * string refuses here, and plain tokens longer than the room left (or, near the cap, the lift of
   * everything that may still fit).
   */
  private inString(pos: WalkPosition): TokenBias {
    const room = this.roomLeft(pos);
    // No room for the probe: not plain string content (a pattern), so only the universal bans apply.
    const index = room === 0 || room > MAX_PROBED_ROOM ? MAX_PROBED_ROOM + 1 : room;
    const refused = this.refusedHere(pos);
    const cacheKey = refused.id * (MAX_PROBED_ROOM + 2) + index;
    let bias = this.stringBans.get(cacheKey);
    if (!bias) {
      const strings = this.texts.stringTokens;
      const longer = index > MAX_PROBED_ROOM || index >= strings.plainLonger.length ? 0 : strings.plainLonger[index];
      const lists = this.sharedFor(refused);
      const banCount = lists.banFixed + longer;
      // Near the cap most plain tokens are too long: lifting the rest is then the shorter list. The
      // lift holds every token the string may take there (short plain text, and every token whose
      // fit depends on the grammar around the string and that this string does not refuse), so the
      // odds among admitted tokens stay those of masking.
      const liftCount = lists.liftFixed + strings.plainByLength.length - longer;
      if (longer > 0 && liftCount < banCount) {
        lists.lift ??= this.liftList(refused.tokens);
        bias = listBias(this.model, lists.lift, liftCount);
      } else bias = listBias(this.model, lists.ban, banCount);
      if (this.stringBans.size >= MAX_MASKS) this.stringBans.clear();
      this.stringBans.set(cacheKey, bias);
    }
    return bias;
  }

  /**
   * The tokens with a quote, backslash or control character (`maybe`: no string rules them out
   * everywhere) that the grammar refuses at this string position, found by walking them; each
   * distinct set once. Unbanned, such a token wins a random step now and then (a closing quote
   * followed by `}` where the envelope needs `,`), llama.cpp rejects it and then walks the whole
   * vocabulary: about 25 ms on Qwen2.5 and 50–140 ms on Gemma 4, against a 2–7 ms step.
   */
  private refusedHere(pos: WalkPosition): RefusedSet {
    const key = this.walker.key(pos, this.maybeHorizon);
    let set = this.refusals.get(key);
    if (!set) {
      const out: number[] = [];
      this.walkSorted(pos, this.checkedMaybe, () => true, undefined, (id) => out.push(id));
      const content = out.join(",");
      set = this.refusedSets.get(content);
      if (!set) {
        // Each distinct set keeps its own lists (about 8 bytes a vocabulary token); past a few, the
        // universal bans alone are used (correct, only slower when such a token is sampled).
        set = this.refusedSets.size < MAX_REFUSED_SETS ? { id: this.refusedSets.size + 1, tokens: Int32Array.from(out), content } : NO_REFUSALS;
        if (set !== NO_REFUSALS) this.refusedSets.set(content, set);
      }
      if (this.refusals.size >= MAX_MASKS * 4) this.refusals.clear();
      this.refusals.set(key, set);
    }
    return set;
  }

  /** The lists of a refused set, shared across this model's grammars (built on first use). */
  private sharedFor(refused: RefusedSet): SharedLists {
    const owner: object = this.baseBias ?? this.texts;
    let byContent = sharedLists.get(owner);
    if (!byContent) sharedLists.set(owner, (byContent = new Map<string, SharedLists>()));
    let lists = byContent.get(refused.content);
    if (lists) {
      // Most recently used last.
      byContent.delete(refused.content);
    } else {
      lists = { ...this.stringLists(refused.tokens), runs: new Map() };
      if (byContent.size >= MAX_SHARED_LISTS) byContent.delete(byContent.keys().next().value as string);
    }
    byContent.set(refused.content, lists);
    return lists;
  }

  /** Bans for every room size, as one list: a room's ban is a prefix (the universal and refused bans, then plain tokens longest first). */
  private stringLists(refused: Int32Array): StringLists {
    const strings = this.texts.stringTokens;
    const base = biasEntries(this.baseBias);
    const n = base.size + strings.never.length + refused.length + strings.plainByLength.length;
    const ban = new ListBuilder(n);
    for (const [t, v] of base) ban.add(t, v);
    for (const t of strings.never) ban.add(t, -Infinity);
    for (const t of refused) ban.add(t, -Infinity);
    const banFixed = ban.length;
    for (const t of strings.plainByLength) ban.add(t, -Infinity);
    const refusedSet = new Set(refused);
    const liftFixed = base.size + strings.maybe.reduce((k, t) => (refusedSet.has(t) ? k : k + 1), 0);
    return { ban: ban.build(), banFixed, liftFixed };
  }

  /** Lifts near the cap, as one list: a room's lift is a prefix (the universal bans, the maybe tokens not refused, then plain tokens shortest first). */
  private liftList(refused: Int32Array): PairList {
    const strings = this.texts.stringTokens;
    const base = biasEntries(this.baseBias);
    const refusedSet = new Set(refused);
    const lift = new ListBuilder(base.size + strings.maybe.length + strings.plainByLength.length);
    for (const [t, v] of base) lift.add(t, v);
    for (const t of strings.maybe) if (!refusedSet.has(t)) lift.add(t, LIFT);
    for (let i = strings.plainByLength.length - 1; i >= 0; i--) lift.add(strings.plainByLength[i], LIFT);
    return lift.build();
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
    return this.maskOf(tokens);
  }

  /**
   * The exact mask of a position inside the vault's grounded rules, however many characters or tokens it admits:
   * there llama.cpp is handed free string content (vault-loose.ts), so this mask is what keeps the model on the
   * vault's paths, note texts and tags. Null where some admitted character begins no whole token admitted here (the
   * vocabulary spells it in pieces), or the position cannot be walked (a negated class, too many characters): the
   * generator then hands llama.cpp the grounded grammar, which follows a character's bytes.
   */
  exact(pos: WalkPosition): TokenBias | null {
    const key = this.walker.key(pos, this.horizon);
    // A small choice's mask is this position's exact mask already.
    const small = this.masks.get(key);
    if (small) return small.bias;
    let mask = this.masks.get(`x${key}`);
    if (mask === undefined) {
      mask = null;
      const first = this.walker.nextChars(pos, MAX_EXACT_CHARS);
      const tokens: Token[] = [];
      const budget = { steps: MAX_EXACT_WALK_STEPS };
      let finished = first !== null;
      for (const cp of first ?? []) {
        const before = tokens.length;
        finished = this.aliveSorted(pos, this.texts.startingWith(cp), tokens, Infinity, budget) === "done";
        // A character no whole token begins here (the vocabulary spells it in pieces): a mask would leave it out.
        if (tokens.length === before) finished = false;
        if (!finished) break;
      }
      if (finished && tokens.length > 0) mask = this.maskOf(tokens);
      if (this.masks.size >= MAX_MASKS) this.masks.clear();
      this.masks.set(`x${key}`, mask);
      // Within a small choice's bounds it is that choice's mask too (the jump planner asks for it by that key).
      if (mask && small === undefined && first !== null && first.length <= MAX_CHOICE_CHARS && tokens.length <= Math.floor(this.texts.texts.length * MAX_MASK_SHARE)) this.masks.set(key, mask);
    }
    return mask?.bias ?? null;
  }

  /**
   * A token the grammar admits at this position, for the generator to put in place of a sampled token it refuses
   * (the shortest admitted text first: it commits the model to the least); null when none is found.
   */
  someAdmitted(pos: WalkPosition): Token | null {
    const first = this.walker.nextChars(pos, MAX_EXACT_CHARS) ?? PRINTABLE_ASCII.filter((c) => !this.walker.dead(this.walker.step(pos, c)));
    let best: Token | null = null;
    const budget = { steps: MAX_EXACT_WALK_STEPS };
    for (const cp of first) {
      this.walkSorted(pos, this.texts.startingWith(cp), (id) => {
        if (best === null || this.texts.texts[id]!.length < this.texts.texts[best]!.length) best = id as Token;
        return true;
      }, budget);
    }
    return best;
  }

  private maskOf(tokens: Token[]): ChoiceMask {
    const bias = new (llamaRuntime().TokenBias)(this.model.tokenizer);
    const bans = biasEntries(this.baseBias);
    for (const [t, v] of bans) bias.set(t, { logit: v });
    let longest = 0;
    for (const t of tokens) {
      if (bans.has(t)) continue;
      bias.set(t, { logit: LIFT });
      longest = Math.max(longest, this.texts.texts[t]!.length);
    }
    return { bias: sealBias(bias), longest };
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
 * A TokenBias over the first `count` entries of a shared list. It is sealed with views of the list
 * (sealed-bias.ts), so llama.cpp gets them without a copy at each step, and the string biases of
 * every room size share one list instead of a Map of up to 100k entries each. `_biases` reads the
 * same entries for anything that iterates it (tests, benchmarks).
 */
function listBias(model: LlamaModel, list: PairList, count: number): TokenBias {
  const bias = new (llamaRuntime().TokenBias)(model.tokenizer);
  const keys = list.keys.subarray(0, count);
  const values = list.values.subarray(0, count);
  const iterable: Iterable<[Token, number]> = {
    *[Symbol.iterator]() {
      for (let i = 0; i < count; i++) yield [keys[i] as Token, values[i]];
    },
  };
  (bias as unknown as { _biases: Iterable<[Token, number]> })._biases = iterable;
  return sealBias(bias, { keys, values });
}

/**
 * A class run's characters: the next characters without the string's exits (a closing quote, an
 * escape); null where there are many (a negated class) or a control character (not a JSON string).
 */
/** Builds a bias list into typed arrays (grown as needed). */
class ListBuilder {
  private keys: Uint32Array;
  private values: Float32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.keys = new Uint32Array(Math.max(1, capacity));
    this.values = new Float32Array(Math.max(1, capacity));
  }
  add(token: number, logit: number): void {
    if (this.length === this.keys.length) {
      const keys = new Uint32Array(this.length * 2);
      keys.set(this.keys);
      const values = new Float32Array(this.length * 2);
      values.set(this.values);
      this.keys = keys;
      this.values = values;
    }
    this.keys[this.length] = token;
    this.values[this.length++] = logit;
  }
  build(): PairList {
    return { keys: this.keys.subarray(0, this.length), values: this.values.subarray(0, this.length) };
  }
}

function runChars(next: number[] | null): number[] | null {
  if (next === null) return null;
  const out: number[] = [];
  for (const c of next) {
    if (c < 0x20) return null;
    if (c !== 0x22 && c !== 0x5c) out.push(c);
  }
  return out;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
