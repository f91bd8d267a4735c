/**
 * Staged facts against the memories already kept in the vault, for review: a staged fact that contradicts a kept one
 * is shown beside it, so the newer never silently replaces the older.
 *
 * "Contradicts", testably: the two are about the same subject and say something different about it.
 * - Same subject: the staged fact's title equals the kept note's title (its file name without the date), or their
 *   content words overlap strongly: at least 2 shared words and shared / (words of the shorter) >= 0.6.
 * - Something different: each has a content word the other lacks ("invoices as PDF" / "invoices as Word files").
 * A staged fact whose words all appear in the kept note says nothing new: it is a duplicate, not a contradiction.
 */
import type { VaultPort } from "../ports/vault";
import type { StagedMemory } from "../protocol/staged-memory";
import { splitFrontmatter } from "./frontmatter";
import { contentWords } from "./staging-search";

/** A memory note already in the vault. */
export interface KeptMemory {
  path: string;
  /** The file name without folder, date prefix and extension. */
  title: string;
  /** The note's body (frontmatter left out). */
  text: string;
}

export interface MemoryConflict {
  kind: "contradicts" | "duplicate";
  /** The kept note. */
  kept: KeptMemory;
  /** Why they were paired: "same title" or "shared words: invoice, prefer". */
  reason: string;
}

/** Least share of the shorter fact's words that the two must share to be about the same subject. */
export const SAME_SUBJECT_OVERLAP = 0.6;

/** The title a memory note's file name carries ("Memory/2026-03-20 Invoice format.md" -> "Invoice format"). */
export function memoryTitle(path: string): string {
  const name = path.split("/").pop() ?? path;
  return name.replace(/\.md$/i, "").replace(/^\d{4}-\d{2}-\d{2}\s+/, "").replace(/\s+\(\d+\)$/, "").trim();
}

/** How a staged fact relates to one kept memory, or null when they are about different things. */
export function compareMemory(staged: Pick<StagedMemory, "content" | "title">, kept: KeptMemory): MemoryConflict | null {
  const a = contentWords(staged.content);
  const b = contentWords(kept.text);
  const shared = [...a].filter((w) => b.has(w));
  const onlyStaged = [...a].filter((w) => !b.has(w));
  const onlyKept = [...b].filter((w) => !a.has(w));
  const sameTitle = !!staged.title && staged.title.trim().toLowerCase() === kept.title.toLowerCase();
  const overlap = a.size && b.size ? shared.length / Math.min(a.size, b.size) : 0;
  const sameSubject = sameTitle || (shared.length >= 2 && overlap >= SAME_SUBJECT_OVERLAP);
  if (!sameSubject) return null;
  const reason = sameTitle ? "same title" : `shared words: ${shared.slice(0, 5).join(", ")}`;
  if (onlyStaged.length === 0) return { kind: "duplicate", kept, reason };
  if (onlyKept.length === 0) return null; // The staged fact adds to the kept one without taking anything back.
  return { kind: "contradicts", kept, reason };
}

/** For each staged fact, the kept memories it contradicts or repeats (contradictions first). */
export function findConflicts(staged: readonly StagedMemory[], kept: readonly KeptMemory[]): Map<string, MemoryConflict[]> {
  const out = new Map<string, MemoryConflict[]>();
  for (const m of staged) {
    const found = kept.map((k) => compareMemory(m, k)).filter((c): c is MemoryConflict => c !== null);
    if (found.length) out.set(m.id, found.sort((x, y) => (x.kind === y.kind ? 0 : x.kind === "contradicts" ? -1 : 1)));
  }
  return out;
}

/** The memory notes in the memory folder (at most `limit`, newest names first). */
export async function readKeptMemories(vault: VaultPort, folder: string, limit = 2000): Promise<KeptMemory[]> {
  const prefix = `${folder.replace(/\/+$/, "")}/`;
  const files = (await vault.list()).filter((f) => f.path.startsWith(prefix) && f.path.endsWith(".md")).sort((x, y) => (x.path < y.path ? 1 : -1));
  const out: KeptMemory[] = [];
  for (const f of files.slice(0, limit)) {
    try {
      out.push({ path: f.path, title: memoryTitle(f.path), text: splitFrontmatter(await vault.read(f.path)).body.trim() });
    } catch {
      // Gone since listed.
    }
  }
  return out;
}
