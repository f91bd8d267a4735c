// The build's side of src/core/text/z85.ts: bytes as a Z85 string led by the padding count, which fromZ85 reads back.
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

/** `bytes` (a Uint8Array or Buffer) as Z85, zero-padded to a multiple of four, the padding count first. */
export function toZ85(bytes) {
  const pad = (4 - (bytes.length % 4)) % 4;
  const padded = new Uint8Array(bytes.length + pad);
  padded.set(bytes);
  const out = [String(pad)];
  const digits = new Array(5);
  for (let i = 0; i < padded.length; i += 4) {
    let v = ((padded[i] << 24) >>> 0) + (padded[i + 1] << 16) + (padded[i + 2] << 8) + padded[i + 3];
    for (let k = 4; k >= 0; k--) {
      digits[k] = ALPHABET[v % 85];
      v = Math.floor(v / 85);
    }
    out.push(digits.join(""));
  }
  return out.join("");
}
