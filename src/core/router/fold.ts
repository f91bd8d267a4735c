/** Folding for matching: lowercase, no Latin or Cyrillic diacritics, and the few letters that have no decomposition. */

const EXTRA: Record<string, string> = { ß: "ss", ł: "l", ı: "i", ø: "o", æ: "ae", œ: "oe", đ: "d", ð: "d", þ: "th", "’": "'", "‘": "'", ʼ: "'" };

/** "Überprüfe" → "uberprufe", "notatkę" → "notatke", "Переименуй" → "переименуи"; kana keep their voicing marks. */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/[ßłıøæœđðþ’‘ʼ]/g, (c) => EXTRA[c] ?? c)
    .normalize("NFD")
    .replace(/[\u0300-\u036f]+/g, "")
    .normalize("NFC");
}
