/**
 * `eval --suite search --vault DIR --questions F`: memory search on a vault no one here wrote (Obsidian's help vault
 * is the one the questions in examples/search/ were written for), as a held-out check of the ranking the suite's own
 * vault tunes. F holds one JSON object a line, `{"language","question","expected","also"?}` (more keys are allowed:
 * `topic`), `expected` being the right note's path relative to the vault and `also` the same page in another folder
 * of the same language (the help vault has Portuguese twice, pt and pt-br), which counts as well. The vault is indexed where `index --vault`
 * keeps its index (so a second run reads no note again), and every question is asked as `search` asks it.
 */
import { readFileSync } from "node:fs";
import { openFolderMemory } from "../../folder-vault/folder-memory";
import { scoreQuestions, summarize, type AskedQuestion, type SearchSuiteResult } from "./search-suite";

/** The questions of a file, checked; a bad line is an error naming its number. */
export function readQuestions(file: string): AskedQuestion[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new Error(`Cannot read the questions file ${file}.`);
  }
  const out: AskedQuestion[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    let item: Partial<AskedQuestion>;
    try {
      item = JSON.parse(line) as Partial<AskedQuestion>;
    } catch {
      throw new Error(`Line ${i + 1} of ${file} is not JSON.`);
    }
    if (typeof item.language !== "string" || typeof item.question !== "string" || typeof item.expected !== "string") {
      throw new Error(`Line ${i + 1} of ${file} needs "language", "question" and "expected" strings.`);
    }
    if (item.also !== undefined && !(Array.isArray(item.also) && item.also.every((p) => typeof p === "string"))) throw new Error(`Line ${i + 1} of ${file}: "also" must be a list of paths.`);
    out.push({ language: item.language, question: item.question, expected: item.expected, ...(item.also ? { also: item.also } : {}) });
  });
  if (out.length === 0) throw new Error(`The questions file ${file} has no questions.`);
  return out;
}

export interface HeldOutOptions {
  vault: string;
  questions: string;
  embedModel?: string;
  log?: (line: string) => void;
}

/** The held-out result: the suite's shape, with the vault and its number of indexed notes. */
export async function runHeldOut(options: HeldOutOptions): Promise<SearchSuiteResult & { vault: string }> {
  const asked = readQuestions(options.questions);
  const memory = await openFolderMemory({ vault: options.vault, embedModel: options.embedModel });
  try {
    await memory.indexer.build();
    const indexed = new Set(memory.indexer.paths());
    const missing = asked.find((q) => !indexed.has(q.expected));
    if (missing) throw new Error(`The expected note ${missing.expected} ("${missing.question}") is not in the vault's index: is --vault the vault the questions were written for?`);
    const rows = await scoreQuestions(memory.search, asked, !!options.embedModel, options.log);
    return { ...summarize(options.embedModel ? "hybrid" : "text", indexed.size, rows), vault: options.vault };
  } finally {
    await memory.close();
  }
}
