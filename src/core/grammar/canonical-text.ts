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

/**
 * The keys a grammar accepts next, among `keys`: their heads (`,"key":`) walked as a trie one code
 * point at a time, so keys sharing a prefix cost it once and a rejected key stops at its first
 * rejected character.
 */
function acceptedHeads(r: GbnfRecognizer, state: RecognizerState, keys: string[], first: boolean, left: { n: number }): Map<string, RecognizerState> {
  const out = new Map<string, RecognizerState>();
  const heads = keys.map((key) => ({ key, text: `${first ? "" : ","}${JSON.stringify(key)}:` }));
  const walk = (at: RecognizerState, group: typeof heads, depth: number): void => {
    const byChar = new Map<string, typeof heads>();
    for (const h of group) {
      if (depth === h.text.length) {
        out.set(h.key, at);
        continue;
      }
      const ch = h.text[depth];
      const list = byChar.get(ch);
      if (list) list.push(h);
      else byChar.set(ch, [h]);
    }
    for (const [ch, list] of byChar) {
      if (left.n <= 0) return;
      const next = advance(r, at, ch, left);
      if (next) walk(next, list, depth + 1);
    }
  };
  walk(state, heads, 0);
  return out;
}

/** Keys already probed at a state (their accepted heads), so the next member does not probe them again. */
interface Probe {
  state: RecognizerState;
  heads: Map<string, RecognizerState>;
  asked: Set<string>;
}

function* members(r: GbnfRecognizer, at: Step, obj: Record<string, unknown>, remaining: string[], first: boolean, left: { n: number }, probed?: Probe): Generator<Step> {
  if (remaining.length === 0) {
    const close = advance(r, at.state, "}", left);
    if (close) yield { state: close, text: at.text + "}" };
    return;
  }
  let accepted: Map<string, RecognizerState>;
  if (probed && probed.state === at.state) {
    accepted = new Map(probed.heads);
    for (const [k, s] of acceptedHeads(r, at.state, remaining.filter((k) => !probed.asked.has(k)), first, left)) accepted.set(k, s);
  } else accepted = acceptedHeads(r, at.state, remaining, first, left);
  if (accepted.size === 0) return;
  // A key that leaves every other acceptable key acceptable after it is the grammar's next one
  // (declared members come in a fixed order, extra keys after them); it is tried first, so a value
  // whose keys are in another order is found without a search over orders.
  const head = (key: string) => `${first ? "" : ","}${JSON.stringify(key)}:`;
  const started = new Map<string, { ways: Generator<Step>; first: Step; probe?: Probe }>();
  let next: string | undefined;
  const candidates = remaining.filter((k) => accepted.has(k));
  if (candidates.length === 1) next = candidates[0];
  for (const key of candidates) {
    if (next !== undefined || left.n <= 0) break;
    const ways = write(r, accepted.get(key)!, obj[key], left);
    const firstWay = ways.next();
    if (firstWay.done) continue;
    const others = candidates.filter((k) => k !== key);
    const heads = acceptedHeads(r, firstWay.value.state, others, false, left);
    started.set(key, { ways, first: firstWay.value, probe: { state: firstWay.value.state, heads, asked: new Set(others) } });
    if (heads.size === others.length) next = key;
  }
  const order = next === undefined ? candidates : [next, ...candidates.filter((k) => k !== next)];
  for (const key of order) {
    if (left.n <= 0) return;
    const rest = remaining.filter((k) => k !== key);
    const at2 = (v: Step): Step => ({ state: v.state, text: at.text + head(key) + v.text });
    const known = started.get(key);
    if (known) {
      yield* members(r, at2(known.first), obj, rest, false, left, known.probe);
      for (const v of known.ways) yield* members(r, at2(v), obj, rest, false, left);
    } else for (const v of write(r, accepted.get(key)!, obj[key], left)) yield* members(r, at2(v), obj, rest, false, left);
  }
}
