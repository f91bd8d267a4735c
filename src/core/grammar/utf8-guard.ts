/**
 * Tokens that are not whole, well-formed UTF-8 on their own (byte-fallback pieces such as `<0xE2>`).
 *
 * Why: llama.cpp matches grammars on code points and tracks characters split across tokens leniently.
 * Measured with node-llama-cpp 3.21.1 on the random-weight test model: byte tokens let the model
 * spell overlong sequences (E0 8E AE) that the grammar accepts but that decode to U+FFFD on our
 * side, a raw control byte after a lead byte (E2 19) slips past the grammar, and sampling can reach
 * a state where no token is allowed ("Unexpected empty grammar stack"). Banning these tokens keeps
 * every generated character whole; non-ASCII text still comes from ordinary pieces or `\u` escapes.
 */

/** Whether the bytes form complete, well-formed UTF-8 (RFC 3629). */
export function isWholeUtf8(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b < 0x80) need = 0;
    else if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b === 0xe0) [need, lo] = [2, 0xa0];
    else if (b === 0xed) [need, hi] = [2, 0x9f];
    else if (b >= 0xe1 && b <= 0xef) need = 2;
    else if (b === 0xf0) [need, lo] = [3, 0x90];
    else if (b >= 0xf1 && b <= 0xf3) need = 3;
    else if (b === 0xf4) [need, hi] = [3, 0x8f];
    else return false;
    if (i + need >= bytes.length && need > 0) return false;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return false;
    }
    i += need + 1;
  }
  return true;
}

/** The bytes of a SentencePiece vocabulary entry: `<0xNN>` byte tokens, `▁` for a space; null for control tokens. */
export function sentencePieceBytes(piece: string, isControl = false): Uint8Array | null {
  if (isControl) return null;
  const m = /^<0x([0-9A-Fa-f]{2})>$/.exec(piece);
  if (m) return Uint8Array.of(parseInt(m[1], 16));
  return new TextEncoder().encode(piece.replace(/\u2581/g, " "));
}

/** Ids of tokens whose bytes are not whole UTF-8 (null entries, control tokens, are never listed). */
export function splitCharacterTokens(tokenBytes: ReadonlyArray<Uint8Array | null>): number[] {
  const out: number[] = [];
  tokenBytes.forEach((bytes, id) => {
    if (bytes && !isWholeUtf8(bytes)) out.push(id);
  });
  return out;
}
