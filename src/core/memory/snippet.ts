/** A one-line excerpt of a note around the first matching term, for search results. */
import { splitFrontmatter } from "./frontmatter";

export function snippetFor(text: string, terms: string[], maxChars = 160): string {
  const lower = terms.map((t) => t.toLowerCase()).filter((t) => t.length > 0);
  const lines = splitFrontmatter(text).body.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const matches = (l: string) => lower.some((t) => l.toLowerCase().includes(t));
  // Body lines say more than headings, which usually just repeat the note's name.
  const line = lines.find((l) => !l.startsWith("#") && matches(l)) ?? lines.find(matches) ?? lines.find((l) => !l.startsWith("#")) ?? lines[0] ?? "";
  if (line.length <= maxChars) return line;
  const positions = lower.map((t) => line.toLowerCase().indexOf(t)).filter((i) => i >= 0);
  const start = Math.max(0, (positions.length ? Math.min(...positions) : 0) - Math.floor(maxChars / 3));
  return `${start > 0 ? "…" : ""}${line.slice(start, start + maxChars)}…`;
}
