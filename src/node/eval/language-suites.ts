/**
 * The per-language routing suites: requests as people type them in each language the router supports, each
 * with the tools that should be offered ("-": chat only, no tools). `languages/<lang>.tsv` is the suite;
 * `languages/heldout/<lang>.tsv` is a second set kept apart from tuning, so its numbers say how the router
 * does on requests it was not shaped by. `languages/blind/<lang>.tsv` was written by someone who saw only the tool
 * list, never the router or its hints: the closest stand-in here for requests the router has never seen.
 * English's suite is the bundled EVAL_SUITE; its held-out and blind sets are files.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { EVAL_SUITE } from "./suite";

/** Languages with a suite, English first. */
export const SUITE_LANGUAGES = ["en", "de", "fr", "es", "pt", "it", "nl", "pl", "ru", "uk", "tr", "zh", "ja", "ko"] as const;
export type SuiteLanguage = (typeof SUITE_LANGUAGES)[number];

export interface RouteCase {
  query: string;
  /** Acceptable tools; empty = chat only. */
  tools: string[];
}

const dir = fileURLToPath(new URL("./languages/", import.meta.url));

/** Parses `tools<TAB>request` lines; `#` starts a comment line. */
export function parseRouteCases(text: string, source: string): RouteCase[] {
  const out: RouteCase[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim() || line.startsWith("#")) return;
    const tab = line.indexOf("\t");
    if (tab < 0) throw new Error(`${source} line ${i + 1} has no tab between the tools and the request.`);
    const tools = line.slice(0, tab).trim();
    out.push({ query: line.slice(tab + 1).trim(), tools: tools === "-" ? [] : tools.split(",").map((t) => t.trim()) });
  });
  return out;
}

/** The sets of requests per language. */
export const ROUTE_SETS = ["suite", "heldout", "blind"] as const;
export type RouteSet = (typeof ROUTE_SETS)[number];

/** The suite (or the held-out or blind set) of one language. */
export function languageCases(lang: SuiteLanguage, set: RouteSet = "suite"): RouteCase[] {
  if (lang === "en" && set === "suite") return EVAL_SUITE.map((c) => ({ query: c.query, tools: c.tools }));
  const file = set === "suite" ? `${dir}${lang}.tsv` : `${dir}${set}/${lang}.tsv`;
  return parseRouteCases(readFileSync(file, "utf8"), file);
}
