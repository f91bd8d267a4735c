/**
 * The text of every token of a model's vocabulary as it reads in the middle of a reply (a
 * SentencePiece word piece keeps its leading space), grouped by first character for the choice
 * masks. Control tokens and pieces that are not whole characters on their own have no text here.
 * Built once per model: one detokenize call per token (about 0.25 s at 152k tokens).
 */
import type { LlamaModel, Token } from "node-llama-cpp";

export class TokenTexts {
  /** Text by token id; null for control tokens and split characters. */
  readonly texts: ReadonlyArray<string | null>;
  /** Token ids by the first code point of their text, each list sorted by text. */
  private readonly byFirst: Map<number, Int32Array>;
  /** A token that precedes a continuation when a piece is detokenized on its own. */
  readonly context: Token[];
  /** The longest token text, in UTF-16 units (at least its length in code points). */
  readonly longest: number;
  /** 1 for a token that is a piece of a character split over tokens (its text alone is not whole). */
  private readonly split: Uint8Array;

  private constructor(model: LlamaModel) {
    const nl = model.tokens.nl;
    this.context = nl !== null ? [nl] : model.tokenize("\n", false, "trimLeadingSpace").slice(-1);
    const count = vocabularySize(model);
    const texts: Array<string | null> = new Array<string | null>(count).fill(null);
    const groups = new Map<number, number[]>();
    const split = new Uint8Array(count);
    let longest = 0;
    for (let id = 0; id < count; id++) {
      const token = id as Token;
      if (model.isSpecialToken(token)) continue;
      const text = model.detokenize([token], false, this.context);
      if (text.includes("\uFFFD")) split[id] = 1;
      if (text === "" || text.includes("\uFFFD")) continue;
      texts[id] = text;
      longest = Math.max(longest, text.length);
      const cp = text.codePointAt(0)!;
      let list = groups.get(cp);
      if (!list) groups.set(cp, (list = []));
      list.push(id);
    }
    this.texts = texts;
    this.split = split;
    this.longest = longest;
    this.byFirst = new Map();
    for (const [cp, ids] of groups) {
      ids.sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b));
      this.byFirst.set(cp, Int32Array.from(ids));
    }
  }

  private static readonly cache = new WeakMap<LlamaModel, TokenTexts>();

  /** The texts of this model's vocabulary (built on first use, then kept with the model). */
  static of(model: LlamaModel): TokenTexts {
    let t = TokenTexts.cache.get(model);
    if (!t) TokenTexts.cache.set(model, (t = new TokenTexts(model)));
    return t;
  }

  private strings: StringTokens | undefined;

  /** The vocabulary as seen from inside a JSON string (built on first use). */
  get stringTokens(): StringTokens {
    return (this.strings ??= stringTokens(this.texts, (id) => this.split[id] === 1));
  }

  private readonly runs = new Map<string, RunTokens>();

  /**
   * Tokens whose every character is one of `chars` (sorted code points; no quote, backslash or
   * control character), shortest first, with their lengths in code points; kept per set.
   */
  runTokens(chars: number[]): RunTokens {
    const sig = chars.join(",");
    let run = this.runs.get(sig);
    if (!run) {
      const inSet = new Set(chars);
      const found: Array<[number, number]> = [];
      this.texts.forEach((text, id) => {
        if (text === null) return;
        let n = 0;
        for (const ch of text) {
          if (!inSet.has(ch.codePointAt(0)!)) return;
          n++;
        }
        found.push([id, n]);
      });
      found.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
      run = { ids: Int32Array.from(found.map((f) => f[0])), lengths: Int32Array.from(found.map((f) => f[1])), longest: found.length ? found[found.length - 1][1] : 0, sig };
      if (this.runs.size >= 64) this.runs.clear();
      this.runs.set(sig, run);
    }
    return run;
  }

  /** Tokens whose text starts with this code point, sorted by text. */
  startingWith(cp: number): Int32Array {
    return this.byFirst.get(cp) ?? EMPTY;
  }
}

const EMPTY = new Int32Array(0);

/** The tokens a run of characters from one set can be written with. */
export interface RunTokens {
  /** Token ids, shortest text first. */
  ids: Int32Array;
  /** Their lengths in code points. */
  lengths: Int32Array;
  longest: number;
  /** The set, as its sorted code points joined. */
  sig: string;
}

/** How tokens read inside JSON string content. */
export interface StringTokens {
  /** Tokens no JSON string can contain at any point: a raw control character, a bad escape, or a closing quote followed by what cannot follow a string. */
  never: Int32Array;
  /** Plain text tokens (no quote, backslash or control character), longest first. */
  plainByLength: Int32Array;
  /** plainLonger[n]: how many of plainByLength have more than n code points (n up to the longest). */
  plainLonger: Int32Array;
  /**
   * Tokens a string may hold depending on the grammar around it: text with a quote, backslash or
   * control character that `never` does not exclude, and pieces of a character split over tokens.
   */
  maybe: Int32Array;
}

/** What may follow a string's closing quote in any JSON text (structure or whitespace). */
const AFTER_STRING = new Set([",", ":", "}", "]", " ", "\t", "\n", "\r"]);
const ESCAPES = new Set(['"', "\\", "/", "b", "f", "n", "r", "t"]);

/** Whether the text cannot occur at the start of (or inside) the content of a JSON string, whatever the grammar around it. */
export function neverInString(text: string): boolean {
  const cps = [...text];
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c === '"') return i + 1 < cps.length && !AFTER_STRING.has(cps[i + 1]);
    if (c === "\\") {
      const e = cps[i + 1];
      if (e === undefined) return false;
      if (e === "u") {
        for (let k = i + 2; k < Math.min(i + 6, cps.length); k++) if (!/[0-9a-fA-F]/.test(cps[k])) return true;
        i += 5;
      } else if (ESCAPES.has(e)) i++;
      else return true;
      continue;
    }
    if (c.codePointAt(0)! < 0x20) return true;
  }
  return false;
}

/** No quote, backslash or control character: text a JSON string holds as is. */
function isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

function stringTokens(texts: ReadonlyArray<string | null>, split: (id: number) => boolean): StringTokens {
  const never: number[] = [];
  const maybe: number[] = [];
  const plain: Array<[number, number]> = [];
  let longest = 0;
  texts.forEach((text, id) => {
    if (text === null) {
      if (split(id)) maybe.push(id);
      return;
    }
    if (!isPlain(text)) {
      if (neverInString(text)) never.push(id);
      else maybe.push(id);
      return;
    }
    const n = [...text].length;
    longest = Math.max(longest, n);
    plain.push([id, n]);
  });
  plain.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const plainLonger = new Int32Array(longest + 1);
  for (let n = 0, k = 0; n <= longest; n++) {
    while (k < plain.length && plain[plain.length - 1 - k][1] <= n) k++;
    plainLonger[n] = plain.length - k;
  }
  return { never: Int32Array.from(never), plainByLength: Int32Array.from(plain.map((p) => p[0])), plainLonger, maybe: Int32Array.from(maybe) };
}

function vocabularySize(model: LlamaModel): number {
  const meta = model.fileInfo.metadata as unknown as { tokenizer?: { ggml?: { tokens?: unknown[] } } };
  return meta.tokenizer?.ggml?.tokens?.length ?? 0;
}
