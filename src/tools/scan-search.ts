/**
 * Full-text search by reading notes, for when no text index is available (a fresh vault, tests).
 * Slower than minisearch but always correct; bounded by `maxNotes`.
 */
import type { ToolContext } from "../core/protocol/tool";
import { isExcluded } from "./note-path";

export interface ScanHit {
  path: string;
  score: number;
  snippet: string;
}

export async function scanSearch(ctx: ToolContext, query: string, limit: number, folder = "", maxNotes = 5000): Promise<ScanHit[]> {
  const terms = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}#_-]+/u)
    .filter((t) => t.length > 1);
  if (terms.length === 0) return [];
  const files = (await ctx.vault.list(folder)).filter((f) => f.path.endsWith(".md") && !isExcluded(f.path, ctx)).slice(0, maxNotes);
  const hits: ScanHit[] = [];
  for (const f of files) {
    if (ctx.signal?.aborted) break;
    const text = await ctx.vault.read(f.path);
    const lower = text.toLowerCase();
    const name = f.path.toLowerCase();
    let score = 0;
    let matched = 0;
    for (const t of terms) {
      const count = lower.split(t).length - 1;
      if (count > 0 || name.includes(t)) matched++;
      score += Math.log1p(count) + (name.includes(t) ? 2 : 0);
    }
    if (matched === 0) continue;
    score *= matched / terms.length;
    hits.push({ path: f.path, score, snippet: snippetAround(text, terms) });
  }
  return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit);
}

/** The line holding the first matching term, trimmed to ~160 characters. */
export function snippetAround(text: string, terms: string[]): string {
  const lines = text.split("\n");
  const line = lines.find((l) => terms.some((t) => l.toLowerCase().includes(t))) ?? lines.find((l) => l.trim() !== "") ?? "";
  const trimmed = line.trim();
  if (trimmed.length <= 160) return trimmed;
  const idx = Math.max(0, Math.min(...terms.map((t) => trimmed.toLowerCase().indexOf(t)).filter((i) => i >= 0), trimmed.length) - 60);
  return `${idx > 0 ? "…" : ""}${trimmed.slice(idx, idx + 160)}…`;
}
