/**
 * A JSON value written the way a grammar wants it: compact, with each object's keys in the order the
 * grammar allows (the compiler's order). Object members are chosen by a search over the grammar's
 * live parses, so no knowledge of the schema is needed; the grammar fixes the order, so the search
 * rarely backtracks. Used to check that a grammar accepts a given value (benchmarks, tests).
 */
import type { GbnfRecognizer, RecognizerState } from "./recognizer";

/** Bound on recognizer steps per value, so a pathological grammar cannot stall the check. */
const DEFAULT_BUDGET = 200_000;

/** The value's text in the grammar's key order, or null when the grammar accepts no ordering of it. */
export function canonicalText(recognizer: GbnfRecognizer, value: unknown, budget = DEFAULT_BUDGET): string | null {
  const left = { n: budget };
  for (const { state, text } of write(recognizer, recognizer.begin(), value, left)) {
    if (state.accepted) return text;
    if (left.n <= 0) break;
  }
  return null;
}

interface Step {
  state: RecognizerState;
  text: string;
}

function advance(r: GbnfRecognizer, state: RecognizerState, text: string, left: { n: number }): RecognizerState | null {
  left.n -= text.length;
  if (left.n <= 0) return null;
  return r.advance(state, text);
}

/** Every way (in the grammar's terms) to write the value from this state. */
function* write(r: GbnfRecognizer, state: RecognizerState, value: unknown, left: { n: number }): Generator<Step> {
  if (value === null || typeof value !== "object") {
    const text = JSON.stringify(value);
    const next = advance(r, state, text, left);
    if (next) yield { state: next, text };
    return;
  }
  if (Array.isArray(value)) {
    const open = advance(r, state, "[", left);
    if (!open) return;
    yield* items(r, { state: open, text: "[" }, value, 0, left);
    return;
  }
  const open = advance(r, state, "{", left);
  if (!open) return;
  yield* members(r, { state: open, text: "{" }, value as Record<string, unknown>, Object.keys(value), true, left);
}

function* items(r: GbnfRecognizer, at: Step, list: unknown[], i: number, left: { n: number }): Generator<Step> {
  if (i === list.length) {
    const close = advance(r, at.state, "]", left);
    if (close) yield { state: close, text: at.text + "]" };
    return;
  }
  let state = at.state;
  let text = at.text;
  if (i > 0) {
    const comma = advance(r, state, ",", left);
    if (!comma) return;
    state = comma;
    text += ",";
  }
  for (const item of write(r, state, list[i], left)) yield* items(r, { state: item.state, text: text + item.text }, list, i + 1, left);
}

function* members(r: GbnfRecognizer, at: Step, obj: Record<string, unknown>, remaining: string[], first: boolean, left: { n: number }): Generator<Step> {
  if (remaining.length === 0) {
    const close = advance(r, at.state, "}", left);
    if (close) yield { state: close, text: at.text + "}" };
    return;
  }
  for (const key of remaining) {
    if (left.n <= 0) return;
    const head = `${first ? "" : ","}${JSON.stringify(key)}:`;
    const afterKey = advance(r, at.state, head, left);
    if (!afterKey) continue;
    const rest = remaining.filter((k) => k !== key);
    for (const v of write(r, afterKey, obj[key], left)) yield* members(r, { state: v.state, text: at.text + head + v.text }, obj, rest, false, left);
  }
}
