/**
 * The multi-step routing suite: requests that ask for several steps (find → read → change or create, aggregations
 * over properties, links, tasks, daily notes, memories, moves and deletes, questions that must change nothing), in
 * every language the router supports, each with its plan: the steps in order, each with the tools that would do it.
 * Written from the tool list and the tasks users give a notes agent, not from the router's output.
 *
 * Scored on the first round's offer, as the agent makes it: the whole plan is on offer when every step has one of
 * its tools offered (an unsure decision offers the whole catalog); the first step when the first step's is.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { RouteDecision } from "../../core/ports/agent";
import { SUITE_LANGUAGES, type SuiteLanguage } from "./language-suites";

export interface PlanCase {
  request: string;
  /** The plan's steps in order; each lists the tools that would do it. */
  steps: string[][];
  /** The request says to change nothing: no writing tool should be on offer. */
  readOnly: boolean;
}

const dir = fileURLToPath(new URL("./multistep/", import.meta.url));

/** Parses `plan<TAB>request` lines (plan: steps joined by " > ", alternatives by "|", "!" first for read-only). */
export function parsePlanCases(text: string, source: string): PlanCase[] {
  const out: PlanCase[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim() || line.startsWith("#")) return;
    const tab = line.indexOf("\t");
    if (tab < 0) throw new Error(`${source} line ${i + 1} has no tab between the plan and the request.`);
    let plan = line.slice(0, tab).trim();
    const readOnly = plan.startsWith("!");
    if (readOnly) plan = plan.slice(1);
    const steps = plan.split(">").map((s) => s.split("|").map((t) => t.trim()).filter(Boolean));
    if (steps.some((s) => s.length === 0)) throw new Error(`${source} line ${i + 1} has an empty step in its plan.`);
    out.push({ request: line.slice(tab + 1).trim(), steps, readOnly });
  });
  return out;
}

/** The multi-step sets: the suite, and a held-out set written after the router's rules were set and never tuned on. */
export const PLAN_SETS = ["multi-step", "multi-step held-out"] as const;
export type PlanSet = (typeof PLAN_SETS)[number];

/** The multi-step cases of one language (the suite, or the held-out set). */
export function planCases(lang: SuiteLanguage, set: PlanSet = "multi-step"): PlanCase[] {
  const file = set === "multi-step" ? `${dir}${lang}.tsv` : `${dir}heldout/${lang}.tsv`;
  return parsePlanCases(readFileSync(file, "utf8"), file);
}

export interface PlanMetrics {
  cases: number;
  /** Share of requests whose every step had one of its tools on offer. */
  whole_plan: number;
  /** Share of requests whose first step had one of its tools on offer. */
  first_step: number;
  /** Mean tools offered (an unsure decision counts the whole catalog, chat only counts none). */
  mean_offered: number;
  /** Share of must-change-nothing requests that were offered a writing tool (lower is better). */
  readonly_writers: number;
  misses: { request: string; missing: string[][]; offered: string[] }[];
}

const ratio = (n: number, d: number): number => (d ? Math.round((1000 * n) / d) / 1000 : 1);

/**
 * Scores decisions against plans. `route` gives the first round's decision; `catalog` is every tool name (what an
 * unsure decision offers); `writes` says whether a tool changes the vault.
 */
export function planMetrics(cases: readonly PlanCase[], route: (request: string) => RouteDecision, catalog: readonly string[], writes: (name: string) => boolean): PlanMetrics {
  let whole = 0;
  let first = 0;
  let offeredSum = 0;
  let readOnly = 0;
  let readOnlyWriters = 0;
  const misses: PlanMetrics["misses"] = [];
  for (const c of cases) {
    const d = route(c.request);
    const offered = d.chatOnly ? [] : d.unsure ? [...catalog] : d.tools.map((t) => t.name);
    offeredSum += offered.length;
    const has = (step: string[]): boolean => step.some((t) => offered.includes(t));
    const missing = c.steps.filter((s) => !has(s));
    if (missing.length === 0) whole++;
    else misses.push({ request: c.request, missing, offered: d.unsure ? ["(unsure)"] : offered });
    if (has(c.steps[0])) first++;
    if (c.readOnly) {
      readOnly++;
      if (offered.some(writes)) readOnlyWriters++;
    }
  }
  return {
    cases: cases.length,
    whole_plan: ratio(whole, cases.length),
    first_step: ratio(first, cases.length),
    mean_offered: Math.round((offeredSum / Math.max(1, cases.length)) * 100) / 100,
    readonly_writers: readOnly ? ratio(readOnlyWriters, readOnly) : 0,
    misses,
  };
}

export { SUITE_LANGUAGES };
