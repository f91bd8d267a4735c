/** FNV-1a over UTF-16 code units, in base 36: a short stable name for a text (not cryptographic). */
export function fnv1a36(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}
