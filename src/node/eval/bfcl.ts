/**
 * The BFCL sample in ../shared/benchmarks/bfcl (see its README): 400 real requests, each with its own function
 * catalog and one expected call with BFCL's acceptable argument values.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface BfclFunction {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface BfclItem {
  id: string;
  category: string;
  question: string;
  system?: string;
  functions: BfclFunction[];
  answer: { name: string; args: Record<string, unknown>; acceptable: Record<string, unknown[]> }[];
}

export const BFCL_FILES = ["simple.jsonl", "multiple.jsonl", "live_simple.jsonl", "live_multiple.jsonl"];

/** Where the sample lies by default: beside the repository's worktrees, or as VAULT_AGENT_BFCL says. */
export function defaultBfclDir(): string {
  if (process.env.VAULT_AGENT_BFCL) return resolve(process.env.VAULT_AGENT_BFCL);
  return resolve(fileURLToPath(new URL("../../../", import.meta.url)), "../shared/benchmarks/bfcl");
}

/** Every item of the sample, in file order; a missing folder or file is one sentence. */
export function loadBfcl(dir = defaultBfclDir()): BfclItem[] {
  if (!existsSync(dir)) throw new Error(`The BFCL sample folder ${dir} does not exist; pass --bfcl DIR or set VAULT_AGENT_BFCL.`);
  const items: BfclItem[] = [];
  for (const file of BFCL_FILES) {
    const path = join(dir, file);
    if (!existsSync(path)) throw new Error(`The BFCL sample file ${path} is missing.`);
    readFileSync(path, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (!line.trim()) return;
        try {
          items.push(JSON.parse(line) as BfclItem);
        } catch {
          throw new Error(`${path} line ${i + 1} is not valid JSON.`);
        }
      });
  }
  return items;
}

/** Separates a function's name from the number that tells its repeats apart in the one-catalog view. */
export const REPEAT_MARK = "#";

/**
 * Every function of every item as one catalog (845 in the sample). BFCL repeats some names, in several items and
 * sometimes with different definitions; a repeat is kept, named `name#2`, `name#3`…, and counts as its name.
 */
export function bfclCatalog(items: readonly BfclItem[]): BfclFunction[] {
  const count = new Map<string, number>();
  const out: BfclFunction[] = [];
  for (const item of items) {
    for (const f of item.functions) {
      const n = (count.get(f.name) ?? 0) + 1;
      count.set(f.name, n);
      out.push(n === 1 ? f : { ...f, name: `${f.name}${REPEAT_MARK}${n}` });
    }
  }
  return out;
}

/** The function name a catalog entry stands for. */
export function baseName(catalogName: string): string {
  const at = catalogName.lastIndexOf(REPEAT_MARK);
  return at > 0 && /^\d+$/.test(catalogName.slice(at + 1)) ? catalogName.slice(0, at) : catalogName;
}

/** The request as the router sees it (BFCL's system message, where there is one, is instructions, not the request). */
export function bfclRequest(item: BfclItem): string {
  return item.question.trim();
}
