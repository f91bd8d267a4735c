/** A list rendered one item a line, at most `limit` items, with a count of the rest. */
export function listLines(items: string[], limit: number, noun: string): string {
  const shown = items.slice(0, limit);
  const more = items.length - shown.length;
  return shown.join("\n") + (more > 0 ? `\n… and ${more} more ${noun}` : "");
}
