/**
 * `eval --suite search`: memory search on the suite's multilingual vault (topics.ts), full-text alone (or hybrid
 * with `--embed-model`). The vault is written to a folder, indexed as `index --vault` does, and every question is
 * asked as `search` asks it; a question scores when its language's note on its topic is among the first three.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openFolderMemory } from "../../folder-vault/folder-memory";
import { hybridSearch } from "../../../core/memory/hybrid";
import { SEARCH_LANGUAGES, type SearchLanguage } from "./topics";

/** One language's result. */
export interface SearchSuiteRow {
  language: string;
  questions: number;
  /** Questions whose right note is first. */
  top1: number;
  /** Questions whose right note is among the first three. */
  top3: number;
  /** top3 / questions. */
  top3_rate: number;
  /** The questions that missed, with what came first. */
  misses: { question: string; want: string; got: string[] }[];
}

export interface SearchSuiteResult {
  suite: "search";
  mode: "text" | "hybrid";
  notes: number;
  rows: SearchSuiteRow[];
  /** Over every language. */
  top3_rate: number;
  /** The lowest language's top-3 rate. */
  min_top3_rate: number;
}

function notePath(l: SearchLanguage, title: string): string {
  return `${l.code}/${title}.md`;
}

/** Writes the suite's vault under `root`; returns the number of notes. */
export function writeSearchVault(root: string): number {
  let n = 0;
  const put = (path: string, text: string) => {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
    n++;
  };
  for (const l of SEARCH_LANGUAGES) {
    l.titles.forEach((title, i) => {
      const next = l.titles[(i + 1) % l.titles.length];
      put(notePath(l, title), `# ${title}\n\n${l.about[i]}\n\n${l.seeAlso} [[${next}]].\n`);
    });
    // A long FAQ: every question, each answered with common words (the kind of page that wins on common words).
    const faq = l.questions.map((q) => `**${q}?**\n\n${l.filler} ${l.filler}\n`).join("\n");
    put(notePath(l, l.faq), `# ${l.faq}\n\n${faq}`);
    put(notePath(l, l.glossary), `# ${l.glossary}\n\n${l.titles.map((t) => `- [[${t}]]: ${l.filler.split(/[.。]/)[0]}.`).join("\n")}\n`);
  }
  return n;
}

export interface SearchSuiteOptions {
  embedModel?: string;
  /** Keep the vault and index here instead of a temporary folder. */
  keep?: string;
  log?: (line: string) => void;
}

export async function runSearchSuite(options: SearchSuiteOptions = {}): Promise<SearchSuiteResult> {
  const root = options.keep ?? mkdtempSync(join(tmpdir(), "search-suite-"));
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const notes = writeSearchVault(root);
  const memory = await openFolderMemory({ vault: root, embedModel: options.embedModel });
  try {
    await memory.indexer.build();
    const asked = SEARCH_LANGUAGES.flatMap((l) => l.questions.map((question, i) => ({ language: l.code, question, expected: notePath(l, l.titles[i]) })));
    const rows = await scoreQuestions(memory.search, asked, !!options.embedModel, options.log);
    return summarize(options.embedModel ? "hybrid" : "text", notes, rows);
  } finally {
    await memory.close();
    if (!options.keep) rmSync(root, { recursive: true, force: true });
  }
}

/** A question whose right note is known: the path the search should put in its first three. */
export interface AskedQuestion {
  language: string;
  question: string;
  /** The right note's path, relative to the vault. */
  expected: string;
  /** The same page in another folder of the same language (the help vault's pt and pt-br), which counts as well. */
  also?: string[];
}

/** Every question asked as `search` asks it; one row per language, in the order the languages first appear. */
export async function scoreQuestions(search: Awaited<ReturnType<typeof openFolderMemory>>["search"], asked: AskedQuestion[], hybrid: boolean, log?: (line: string) => void): Promise<SearchSuiteRow[]> {
  const rows = new Map<string, SearchSuiteRow>();
  for (const q of asked) {
    let row = rows.get(q.language);
    if (!row) rows.set(q.language, (row = { language: q.language, questions: 0, top1: 0, top3: 0, top3_rate: 0, misses: [] }));
    const got = await rank(search, q.question, hybrid);
    const right = new Set([q.expected, ...(q.also ?? [])]);
    row.questions++;
    if (right.has(got[0])) row.top1++;
    if (got.slice(0, 3).some((p) => right.has(p))) row.top3++;
    else row.misses.push({ question: q.question, want: q.expected, got: got.slice(0, 3) });
  }
  for (const row of rows.values()) {
    row.top3_rate = Math.round((row.top3 / row.questions) * 1000) / 1000;
    log?.(`[search] ${row.language}: top-3 ${row.top3}/${row.questions}`);
  }
  return [...rows.values()];
}

/** The result over every language's row. */
export function summarize(mode: "text" | "hybrid", notes: number, rows: SearchSuiteRow[]): SearchSuiteResult {
  const total = rows.reduce((s, r) => s + r.questions, 0);
  const hit = rows.reduce((s, r) => s + r.top3, 0);
  return { suite: "search", mode, notes, rows, top3_rate: total === 0 ? 0 : Math.round((hit / total) * 1000) / 1000, min_top3_rate: rows.length === 0 ? 0 : Math.min(...rows.map((r) => r.top3_rate)) };
}

/** Note paths for a question, best first: full-text, or the hybrid ranking when vectors are there. */
async function rank(search: Awaited<ReturnType<typeof openFolderMemory>>["search"], question: string, hybrid: boolean): Promise<string[]> {
  if (hybrid) return (await hybridSearch(search, question, 10)).map((h) => h.path);
  return (await search.textSearch(question, 10)).map((h) => h.path);
}

/** The table a person reads. */
export function formatSearchSuite(result: SearchSuiteResult): string {
  const lines = [`search suite (${result.mode}), ${result.notes} notes`, "lang  top-1  top-3  rate"];
  for (const r of result.rows) lines.push(`${r.language.padEnd(4)}  ${String(r.top1).padStart(5)}  ${String(r.top3).padStart(5)}  ${r.top3_rate.toFixed(2)}`);
  lines.push(`all   top-3 rate ${result.top3_rate.toFixed(3)}, lowest language ${result.min_top3_rate.toFixed(3)}`);
  for (const r of result.rows) for (const m of r.misses) lines.push(`  miss [${r.language}] "${m.question}": want ${m.want}, got ${m.got.join(" | ")}`);
  return lines.join("\n");
}
