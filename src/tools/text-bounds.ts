/** Keeps tool output inside the context budget, saying what was left out so the model can page. */
export function clip(text: string, maxChars: number, hint = "ask for less or page with offset"): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf("\n", maxChars);
  const end = cut > maxChars * 0.6 ? cut : maxChars;
  return `${text.slice(0, end)}\n… (${text.length - end} more characters; ${hint})`;
}

/** A list rendered one item a line, at most `limit` items, with a count of the rest. */
export function listLines(items: string[], limit: number, noun: string): string {
  const shown = items.slice(0, limit);
  const more = items.length - shown.length;
  return shown.join("\n") + (more > 0 ? `\n… and ${more} more ${noun}` : "");
}
