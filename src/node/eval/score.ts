/** Scoring one evaluated turn against its case: right tool, right key args, mixed-tool hybrids. */
import { repairAliases } from "../../core/gatekeeper/alias-repair";
import { normalizeVaultPath } from "../../core/gatekeeper/path-policy";
import type { EnvelopeToolCall } from "../../core/protocol/envelope";
import type { ToolRegistry } from "../../tools/registry";
import type { EvalCase } from "./suite";

function norm(value: unknown): string {
  if (typeof value !== "string") return JSON.stringify(value);
  return normalizeVaultPath(value).toLowerCase().replace(/\.md$/, "").replace(/^#/, "");
}

/** Whether an actual arg value satisfies an expected one (strings: containment after normalizing). */
export function argMatches(expected: string | number | boolean, actual: unknown): boolean {
  if (actual === undefined || actual === null) return false;
  if (typeof expected === "string") {
    const a = norm(Array.isArray(actual) ? actual.map((x) => JSON.stringify(x)).join(" ") : actual);
    const e = norm(expected);
    if (e === "") return true;
    return a.includes(e) || (e.includes(a) && a.length >= Math.min(4, e.length));
  }
  // Numbers and booleans: the model may write 5 or "5".
  return (typeof actual === "string" ? actual : JSON.stringify(actual)) === String(expected);
}

export interface CaseScore {
  rightTool: boolean;
  rightArgs: boolean;
  /** The call's keys belong to another tool, not its own. */
  hybrid: boolean;
}

export function scoreCall(testCase: EvalCase, call: EnvelopeToolCall | undefined, registry: ToolRegistry): CaseScore {
  if (!call) {
    const right = testCase.tools.length === 0;
    return { rightTool: right, rightArgs: right, hybrid: false };
  }
  const tool = registry.get(call.name);
  let hybrid = false;
  let args: Record<string, unknown> = call.args ?? {};
  if (tool) {
    args = repairAliases(args, tool.keys, tool.definition.aliases).args;
    const foreign = Object.keys(args).filter((k) => !tool.keys.includes(k));
    if (foreign.length > 0) {
      hybrid = registry.list().some((other) => other !== tool && foreign.every((k) => other.keys.includes(k)));
    }
  }
  const rightTool = testCase.tools.includes(call.name);
  const rightArgs = rightTool && Object.entries(testCase.args).every(([k, v]) => argMatches(v, args[k]));
  return { rightTool, rightArgs, hybrid };
}
