/**
 * UTF-8 well-formedness (RFC 3629) as a small automaton over bytes, so a token's effect on "is the output
 * so far a valid UTF-8 prefix" can be precomputed once per vocabulary and looked up per step.
 *
 * States: 0 = at a character boundary; the others say what the next byte must be to continue a
 * character (the second byte after E0, ED, F0 and F4 has a narrower range than 80–BF).
 */

/** The byte sequence can never become valid UTF-8. */
export const UTF8_INVALID = -1;
/** At a character boundary (everything so far is whole). */
export const UTF8_BOUNDARY = 0;
/** Number of automaton states (0..7). */
export const UTF8_STATES = 8;

// State ids: 1–3 need that many more 80–BF bytes; 4: after E0 (A0–BF, then 1); 5: after ED (80–9F, then 1);
// 6: after F0 (90–BF, then 2); 7: after F4 (80–8F, then 2).
const NEED1 = 1;
const NEED2 = 2;
const NEED3 = 3;
const AFTER_E0 = 4;
const AFTER_ED = 5;
const AFTER_F0 = 6;
const AFTER_F4 = 7;

/** The state after `byte` in `state`, or UTF8_INVALID. */
export function utf8Step(state: number, byte: number): number {
  switch (state) {
    case UTF8_BOUNDARY:
      if (byte < 0x80) return UTF8_BOUNDARY;
      if (byte >= 0xc2 && byte <= 0xdf) return NEED1;
      if (byte === 0xe0) return AFTER_E0;
      if (byte === 0xed) return AFTER_ED;
      if (byte >= 0xe1 && byte <= 0xef) return NEED2;
      if (byte === 0xf0) return AFTER_F0;
      if (byte >= 0xf1 && byte <= 0xf3) return NEED3;
      if (byte === 0xf4) return AFTER_F4;
      return UTF8_INVALID;
    case NEED1:
    case NEED2:
    case NEED3:
      return byte >= 0x80 && byte <= 0xbf ? state - 1 : UTF8_INVALID;
    case AFTER_E0:
      return byte >= 0xa0 && byte <= 0xbf ? NEED1 : UTF8_INVALID;
    case AFTER_ED:
      return byte >= 0x80 && byte <= 0x9f ? NEED1 : UTF8_INVALID;
    case AFTER_F0:
      return byte >= 0x90 && byte <= 0xbf ? NEED2 : UTF8_INVALID;
    case AFTER_F4:
      return byte >= 0x80 && byte <= 0x8f ? NEED2 : UTF8_INVALID;
    default:
      return UTF8_INVALID;
  }
}

/** The state after all of `bytes`, starting in `state`. */
export function utf8Run(state: number, bytes: Uint8Array): number {
  let s = state;
  for (let i = 0; i < bytes.length && s !== UTF8_INVALID; i++) s = utf8Step(s, bytes[i]);
  return s;
}

/** Whether `bytes` are complete, well-formed UTF-8. */
export function isValidUtf8(bytes: Uint8Array): boolean {
  return utf8Run(UTF8_BOUNDARY, bytes) === UTF8_BOUNDARY;
}
