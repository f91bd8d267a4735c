/**
 * Cuts text to a character budget (tool output, tool results in the context), at a line end when one is near,
 * saying how much was left out and what to do about it, so the model can page instead of guessing.
 */
export function clip(text: string, maxChars: number, hint = "ask for less or page with offset"): string {
  if (text.length <= maxChars) return text;
  const cut = text.lastIndexOf("\n", maxChars);
  const end = cut > maxChars * 0.6 ? cut : maxChars;
  return `${text.slice(0, end)}\n… (${text.length - end} more characters; ${hint})`;
}
