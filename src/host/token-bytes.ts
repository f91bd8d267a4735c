/**
 * The bytes each vocabulary entry stands for, read from the GGUF's token list the way llama.cpp decodes
 * them: byte-level BPE ("gpt2": GPT-2's byte-to-character map), SentencePiece ("llama", and Gemma 4's
 * "gemma4" BPE: "▁" for a space, `<0xNN>` byte pieces). Control tokens have no text (null).
 */

/** GGUF token types. */
export const TOKEN_TYPE = { normal: 1, unknown: 2, control: 3, userDefined: 4, unused: 5, byte: 6 } as const;

/** GPT-2's reversible byte → printable character map, inverted: character code → byte. */
function gpt2CharToByte(): Map<number, number> {
  const bytes: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) bytes.push(b);
  for (let b = 0xa1; b <= 0xac; b++) bytes.push(b);
  for (let b = 0xae; b <= 0xff; b++) bytes.push(b);
  const chars = [...bytes];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bytes.includes(b)) {
      bytes.push(b);
      chars.push(256 + n++);
    }
  }
  return new Map(chars.map((c, i) => [c, bytes[i]]));
}

let gpt2Map: Map<number, number> | undefined;
const encoder = new TextEncoder();

/** Bytes of one byte-level BPE piece; null when a character is outside the map (not a byte piece). */
function gpt2Bytes(piece: string): Uint8Array | null {
  gpt2Map ??= gpt2CharToByte();
  const out = new Uint8Array(piece.length);
  let n = 0;
  for (const ch of piece) {
    const b = gpt2Map.get(ch.codePointAt(0)!);
    if (b === undefined) return null;
    out[n++] = b;
  }
  return out.subarray(0, n);
}

/** Bytes of one SentencePiece-style piece. */
function sentencePieceBytes(piece: string, type: number): Uint8Array {
  if (type === TOKEN_TYPE.byte) {
    const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(piece);
    if (m) return Uint8Array.of(parseInt(m[1], 16));
  }
  return encoder.encode(piece.replace(/\u2581/g, " "));
}

/**
 * Bytes per token id for this vocabulary; null for tokens that never produce text (control, unknown,
 * unused), so they take no part in UTF-8 tracking.
 */
export function vocabularyBytes(tokenizerModel: string, tokens: readonly string[], types: ArrayLike<number>): Array<Uint8Array | null> {
  const byteLevel = tokenizerModel === "gpt2";
  return tokens.map((piece, id) => {
    const type = types[id] ?? TOKEN_TYPE.normal;
    if (type === TOKEN_TYPE.control || type === TOKEN_TYPE.unknown || type === TOKEN_TYPE.unused) return null;
    // llama.cpp writes user-defined pieces as they are, without the byte map.
    if (type === TOKEN_TYPE.userDefined) return encoder.encode(piece);
    if (byteLevel) return gpt2Bytes(piece) ?? encoder.encode(piece);
    return sentencePieceBytes(piece, type);
  });
}
