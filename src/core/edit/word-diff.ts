/**
 * A word-level diff: texts split into words, runs of white space and single other characters, compared with
 * Myers' algorithm, hunks separated only by white space merged. Bounded: past an edit distance the middle is
 * compared line by line first, so a 5,000-word note diffs in milliseconds whatever was rewritten.
 */

/** One difference: `a.slice(fromA, toA)` became `b.slice(fromB, toB)` (offsets in characters). */
export interface DiffHunk {
  fromA: number;
  toA: number;
  fromB: number;
  toB: number;
}

/** Words (letters, digits, marks, joiners), white space runs, or one other character. */
const TOKEN = /[\p{L}\p{N}\p{M}_'’-]+|\s+|[\uD800-\uDBFF][\uDC00-\uDFFF]|[^]/gu;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/** Edit distance (in tokens) above which token Myers gives way to lines first: bounds time and the trace's memory. */
const MAX_DISTANCE = 500;

/** The word-level differences between two texts, in order, adjacent ones (only white space between) merged. */
export function wordDiff(a: string, b: string): DiffHunk[] {
  const raw = diffUnits(tokenize(a), tokenize(b), true);
  return joinTouching(mergeAcrossSpace(raw, a).map((h, i, all) => slideInsertion(h, a, b, i > 0 ? all[i - 1].toA : 0)));
}

/** Hunks that touch in both texts after a slide (two insertions at one place) become one, so each place has one change. */
function joinTouching(hunks: DiffHunk[]): DiffHunk[] {
  const out: DiffHunk[] = [];
  for (const h of hunks) {
    const last = out[out.length - 1];
    if (last && last.toA === h.fromA && last.toB === h.fromB) out[out.length - 1] = { ...last, toA: h.toA, toB: h.toB };
    else out.push(h);
  }
  return out;
}

/**
 * An insertion that ends with the space just before it moves one place left ("compost| and mulch", not
 * "compost |and mulch "), so it reads after the word it follows. Same text either way.
 */
function slideInsertion(h: DiffHunk, a: string, b: string, floor: number): DiffHunk {
  if (h.fromA !== h.toA || h.toB === h.fromB || h.fromA - 1 < floor) return h;
  const last = b[h.toB - 1];
  if (!/\s/.test(last) || a[h.fromA - 1] !== last) return h;
  return { fromA: h.fromA - 1, toA: h.toA - 1, fromB: h.fromB - 1, toB: h.toB - 1 };
}

/** Hunks over two token lists, as character offsets. `split`: may fall back to lines, then words inside them. */
function diffUnits(ta: string[], tb: string[], split: boolean): DiffHunk[] {
  const offA = offsets(ta);
  const offB = offsets(tb);
  // Common prefix and suffix first: an edit in a long note leaves most of it alike.
  let start = 0;
  while (start < ta.length && start < tb.length && ta[start] === tb[start]) start++;
  let endA = ta.length;
  let endB = tb.length;
  while (endA > start && endB > start && ta[endA - 1] === tb[endB - 1]) {
    endA--;
    endB--;
  }
  const ops = myers(ta.slice(start, endA), tb.slice(start, endB), MAX_DISTANCE);
  if (ops) return toHunks(ops, start, start, offA, offB);
  const textA = ta.slice(start, endA).join("");
  const textB = tb.slice(start, endB).join("");
  const baseA = offA[start];
  const baseB = offB[start];
  if (!split) return [{ fromA: baseA, toA: baseA + textA.length, fromB: baseB, toB: baseB + textB.length }];
  // Too different for a word diff in one go: lines first, then words within each changed block of lines.
  const la = lines(textA);
  const lb = lines(textB);
  const out: DiffHunk[] = [];
  for (const h of diffUnits(la, lb, false)) {
    const inner = diffUnits(tokenize(textA.slice(h.fromA, h.toA)), tokenize(textB.slice(h.fromB, h.toB)), false);
    for (const i of inner) out.push({ fromA: baseA + h.fromA + i.fromA, toA: baseA + h.fromA + i.toA, fromB: baseB + h.fromB + i.fromB, toB: baseB + h.fromB + i.toB });
  }
  return out;
}

function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function offsets(tokens: string[]): number[] {
  const out = new Array<number>(tokens.length + 1);
  out[0] = 0;
  for (let i = 0; i < tokens.length; i++) out[i + 1] = out[i] + tokens[i].length;
  return out;
}

/** Edit script as runs: "=" kept, "-" only in a, "+" only in b; null when the distance is over maxD. */
function myers(a: string[], b: string[], maxD: number): Array<{ op: "=" | "-" | "+"; n: number }> | null {
  const n = a.length;
  const m = b.length;
  if (n === 0 && m === 0) return [];
  if (n === 0) return [{ op: "+", n: m }];
  if (m === 0) return [{ op: "-", n }];
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, maxD); d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a.length, b.length, d);
    }
  }
  return null;
}

function backtrack(trace: Int32Array[], n: number, m: number, dEnd: number): Array<{ op: "=" | "-" | "+"; n: number }> {
  const ops: Array<"=" | "-" | "+"> = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const row = trace[d];
    // row holds v[-d-1 .. d+1] as seen at the start of round d (the end of round d-1).
    const at = (k: number) => row[k + d + 1];
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push("=");
      x--;
      y--;
    }
    if (down) {
      ops.push("+");
      y--;
    } else {
      ops.push("-");
      x--;
    }
  }
  while (x > 0 && y > 0) {
    ops.push("=");
    x--;
    y--;
  }
  ops.reverse();
  const runs: Array<{ op: "=" | "-" | "+"; n: number }> = [];
  for (const op of ops) {
    const last = runs[runs.length - 1];
    if (last?.op === op) last.n++;
    else runs.push({ op, n: 1 });
  }
  return runs;
}

function toHunks(runs: Array<{ op: "=" | "-" | "+"; n: number }>, startA: number, startB: number, offA: number[], offB: number[]): DiffHunk[] {
  const hunks: DiffHunk[] = [];
  let i = startA;
  let j = startB;
  let open: { ia: number; jb: number } | null = null;
  const close = () => {
    if (open) hunks.push({ fromA: offA[open.ia], toA: offA[i], fromB: offB[open.jb], toB: offB[j] });
    open = null;
  };
  for (const run of runs) {
    if (run.op === "=") {
      close();
      i += run.n;
      j += run.n;
      continue;
    }
    open ??= { ia: i, jb: j };
    if (run.op === "-") i += run.n;
    else j += run.n;
  }
  close();
  return hunks;
}

/** Joins hunks with only white space (the same in both texts) between them: "quick brown" → "slow red" is one change. */
function mergeAcrossSpace(hunks: DiffHunk[], a: string): DiffHunk[] {
  const out: DiffHunk[] = [];
  for (const h of hunks) {
    const last = out[out.length - 1];
    if (last && /^[ \t]*$/.test(a.slice(last.toA, h.fromA)) && h.fromA - last.toA <= 2) {
      out[out.length - 1] = { fromA: last.fromA, toA: h.toA, fromB: last.fromB, toB: h.toB };
    } else out.push({ ...h });
  }
  return out;
}
