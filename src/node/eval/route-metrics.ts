/**
 * Router quality on a set of cases, text scores only: top-3 recall (the expected tool among the offered tools'
 * first three, with the router neither unsure nor chat-only), and chat-only recall and precision.
 */
import type { ToolRouter } from "../../core/router/tool-router";
import type { RouteCase } from "./language-suites";

export interface RouteMetrics {
  tool_cases: number;
  chat_cases: number;
  /** Share of tool requests whose tool is in the top 3 offered. */
  top3_recall: number;
  /** Share of tool requests answered with the full catalog ("unsure"). */
  unsure: number;
  /** Share of small-talk items routed to chat only. */
  chat_recall: number;
  /** Share of chat-only decisions that were small talk (1 when none were made). */
  chat_precision: number;
  /** The requests that missed, for reading. */
  misses: { query: string; expected: string[]; got: string[] }[];
}

const ratio = (n: number, d: number): number => (d ? Math.round((1000 * n) / d) / 1000 : 1);

export function routeMetrics(router: ToolRouter, cases: readonly RouteCase[]): RouteMetrics {
  let hits = 0;
  let unsure = 0;
  let chatRight = 0;
  let chatSaid = 0;
  let chatSaidRight = 0;
  const misses: RouteMetrics["misses"] = [];
  const toolCases = cases.filter((c) => c.tools.length > 0);
  for (const c of cases) {
    const d = router.routeText(c.query);
    const got = d.tools.slice(0, 3).map((t) => t.name);
    if (d.chatOnly) {
      chatSaid++;
      if (c.tools.length === 0) chatSaidRight++;
    }
    if (c.tools.length === 0) {
      if (d.chatOnly) chatRight++;
      else misses.push({ query: c.query, expected: [], got: d.unsure ? ["(unsure)", ...got] : got });
      continue;
    }
    if (d.unsure) unsure++;
    if (!d.unsure && !d.chatOnly && got.some((n) => c.tools.includes(n))) hits++;
    else misses.push({ query: c.query, expected: c.tools, got: d.chatOnly ? ["(chat)"] : d.unsure ? ["(unsure)", ...got] : got });
  }
  const chatCases = cases.length - toolCases.length;
  return {
    tool_cases: toolCases.length,
    chat_cases: chatCases,
    top3_recall: ratio(hits, toolCases.length),
    unsure: ratio(unsure, toolCases.length),
    chat_recall: ratio(chatRight, chatCases),
    chat_precision: ratio(chatSaidRight, chatSaid),
    misses,
  };
}
