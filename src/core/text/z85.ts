/**
 * Binary packed into a JavaScript string literal in five characters per four bytes (ZeroMQ's Z85 alphabet, which has
 * no quote or backslash), for main.js's packed parts (the engine host, the search worker, the router's tables): base64
 * spends six characters per four bytes at the margin, 13 KiB more of main.js's 1 MiB. The first character is the
 * padding count (0–3) added to make the bytes a multiple of four; scripts/z85.mjs encodes.
 */
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

export function fromZ85(text: string): Uint8Array {
  const value = new Uint8Array(128);
  for (let i = 0; i < ALPHABET.length; i++) value[ALPHABET.charCodeAt(i)] = i;
  const pad = text.charCodeAt(0) - 48;
  const out = new Uint8Array(((text.length - 1) / 5) * 4);
  for (let i = 1, o = 0; i < text.length; i += 5, o += 4) {
    let v = 0;
    for (let k = 0; k < 5; k++) v = v * 85 + value[text.charCodeAt(i + k)];
    out[o] = v >>> 24;
    out[o + 1] = (v >>> 16) & 255;
    out[o + 2] = (v >>> 8) & 255;
    out[o + 3] = v & 255;
  }
  return out.subarray(0, out.length - pad);
}
