/**
 * A SentencePiece-style ("llama") vocabulary for the test model: special tokens, 256 byte-fallback
 * tokens, then multi-character pieces — JSON punctuation, the agent envelope's words, common English
 * words and subwords, digits — padded with letter combinations up to the requested size.
 * Every piece's prefixes are in the vocabulary too, so llama.cpp's SPM merge can always reach it.
 */
import { TokenType } from "../../engine/gguf/format";

/** SentencePiece's visible space. */
const SPACE = "\u2581";

/** Token ids of the special tokens (fixed positions at the start of the vocabulary). */
export const SPECIAL_TOKENS = {
  unknown: 0,
  bos: 1,
  eos: 2,
  imStart: 3,
  imEnd: 4,
} as const;

const SPECIAL_TEXTS = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"];
const FIRST_BYTE_TOKEN = SPECIAL_TEXTS.length;

/** JSON punctuation as a tokenizer trained on JSON-heavy text would learn it. */
const JSON_PIECES = [
  '{"', '":', '",', '"}', `${SPACE}"`, `":${SPACE}"`, `",${SPACE}"`, '"},', '"}]', '"]', '["', '":[', '":{', '[{', '}]', '},',
  '}}', ']}', '{}', '[]', `${SPACE}{`, `${SPACE}}`, `${SPACE}[`, `${SPACE}]`, `${SPACE}{"`, `:${SPACE}`, `,${SPACE}`, '\\n', '\\"',
  'null', 'true', 'false', `${SPACE}null`, `${SPACE}true`, `${SPACE}false`, '\n', '\n\n', `${SPACE}${SPACE}`, `${SPACE}${SPACE}${SPACE}${SPACE}`,
  '#', '##', `${SPACE}#`, `${SPACE}-`, `${SPACE}*`, '[[', ']]', `${SPACE}[[`, '.md', '/', `${SPACE}/`,
];

/** Words of the agent's envelope and tools, so structured output tokenizes like a real model's would. */
const PROTOCOL_WORDS = [
  "thought", "status", "message_to_user", "tool_calls", "name", "args", "Task", "Reflect", "Idle", "Process",
  "path", "content", "query", "note", "notes", "tag", "tags", "folder", "file", "title", "text", "limit", "heading",
];

/** Common English words (lower case) — the bulk of natural-language tokens. */
const WORDS = (
  "the of and to a in is it you that he was for on are with as I his they be at one have this from or had by not " +
  "word but what some we can out other were all there when up use your how said an each she which do their time if " +
  "will way about many then them write would like so these her long make thing see him two has look more day could " +
  "go come did number sound no most people my over know water than call first who may down side been now find any " +
  "new work part take get place made live where after back little only round man year came show every good me give " +
  "our under very through just form sentence great think say help low line differ turn cause much mean before move " +
  "right boy old too same tell does set three want air well also play small end put home read hand port large spell " +
  "add even land here must big high such follow act why ask men change went light kind off need house picture try us " +
  "again animal point mother world near build self earth father head stand own page should country found answer " +
  "school grow study still learn plant cover food sun four between state keep eye never last let thought city tree " +
  "cross farm hard start might story saw far sea draw left late run while press close night real life few north open " +
  "seem together next white children begin got walk example ease paper group always music those both mark often " +
  "letter until mile river car feet care second book carry took science eat room friend began idea fish mountain " +
  "stop once base hear horse cut sure watch color face wood main enough plain girl usual young ready above ever red " +
  "list though feel talk bird soon body dog family direct pose leave song measure door product black short numeral " +
  "class wind question happen complete ship area half rock order fire south problem piece told knew pass since top " +
  "whole king space heard best hour better true during hundred five remember step early hold west ground interest " +
  "reach fast verb sing listen six table travel less morning ten simple several vowel toward war lay against pattern " +
  "slow center love person money serve appear road map rain rule govern pull cold notice voice unit power town fine " +
  "certain fly fall lead cry dark machine wait plan figure star box noun field rest correct able pound done beauty " +
  "drive stood contain front teach week final gave green oh quick develop ocean warm free minute strong special mind " +
  "behind clear tail produce fact street inch multiply nothing course stay wheel full force blue object decide " +
  "surface deep moon island foot system busy test record boat common gold possible plane stead dry wonder laugh " +
  "thousand ago ran check game shape equate hot miss brought heat snow tire bring yes distant fill east paint " +
  "language among meeting project daily recipe reading summary search create move delete rename link today tomorrow " +
  "yesterday monday tuesday wednesday thursday friday saturday sunday january february march april june july august " +
  "september october november december vault agent model please thanks sorry hello done todo task tasks draft ideas"
).split(" ");

/** Frequent subwords that attach without a leading space. */
const SUFFIXES = ["s", "ed", "ing", "er", "ers", "ly", "tion", "tions", "ment", "ness", "able", "al", "est", "ful", "less", "ity", "ive", "ous", "'s", "n't", "'re", "'ll", "'ve"];

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** One vocabulary: token texts, their merge scores and their kinds, index = token id. */
export interface Vocabulary {
  /** Token text, SentencePiece style ("▁" for a space, "<0x0A>" for a byte). */
  tokens: string[];
  /** Merge priority: higher merges first. */
  scores: number[];
  /** TokenType per token. */
  types: number[];
}

/** Pieces in priority order, each preceded by its missing prefixes; open-ended letter combinations last. */
function* pieceCandidates(): Generator<string> {
  for (let c = 0x20; c < 0x7f; c++) yield c === 0x20 ? SPACE : String.fromCharCode(c);
  for (const d of "0123456789") yield SPACE + d;
  for (let n = 10; n < 100; n++) yield String(n);
  yield* JSON_PIECES;
  for (const w of PROTOCOL_WORDS) {
    yield w;
    yield SPACE + w;
    yield `"${w}"`;
  }
  for (const w of WORDS) {
    yield SPACE + w;
    yield SPACE + w[0].toUpperCase() + w.slice(1);
    yield w;
  }
  yield* SUFFIXES;
  // Letter combinations, shortest first: prefix-closed by construction and as many as any size needs.
  let layer = [""];
  for (;;) {
    const next: string[] = [];
    for (const stem of layer) for (const l of LETTERS) next.push(stem + l);
    for (const p of next) yield SPACE + p;
    for (const p of next) yield p;
    layer = next;
  }
}

/** The smallest vocabulary that still holds every curated piece. */
export const MIN_VOCAB_SIZE = 2048;
/** Token ids stay well inside what llama.cpp and int32 token types handle. */
export const MAX_VOCAB_SIZE = 65536;

/** Builds a vocabulary of exactly `size` tokens. */
export function buildVocabulary(size: number): Vocabulary {
  if (!Number.isInteger(size) || size < MIN_VOCAB_SIZE || size > MAX_VOCAB_SIZE) {
    throw new RangeError(`Vocabulary size must be a whole number from ${MIN_VOCAB_SIZE} to ${MAX_VOCAB_SIZE}, got ${size}.`);
  }
  const tokens = [...SPECIAL_TEXTS];
  const types: number[] = [TokenType.Unknown, TokenType.Control, TokenType.Control, TokenType.Control, TokenType.Control];
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(TokenType.Byte);
  }
  const seen = new Set(tokens);
  const add = (piece: string): void => {
    if (tokens.length >= size || seen.has(piece)) return;
    seen.add(piece);
    tokens.push(piece);
    types.push(TokenType.Normal);
  };
  for (const piece of pieceCandidates()) {
    if (tokens.length >= size) break;
    const chars = [...piece];
    for (let k = 2; k < chars.length; k++) add(chars.slice(0, k).join(""));
    add(piece);
  }
  // Earlier pieces are the more common ones: they win merges, as in a trained SentencePiece model.
  const scores = tokens.map((_, id) => (id < FIRST_BYTE_TOKEN + 256 ? 0 : -(id - FIRST_BYTE_TOKEN - 256) / 100));
  return { tokens, scores, types };
}
