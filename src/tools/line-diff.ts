/**
 * A unified line diff for confirmation previews (`--- a/path`, `+++ b/path`, `@@` hunks with three
 * lines of context). Common prefix and suffix are trimmed first, so a typical edit diffs only the few
 * lines that changed; a huge middle falls back to "all removed, all added" rather than a slow LCS.
 */

type Op = { kind: " " | "-" | "+"; text: string };

const MAX_LCS_CELLS = 4_000_000;

export function unifiedDiff(before: string, after: string, path: string, context = 3): string {
  if (before === after) return "";
  const a = before.split("\n");
  const b = after.split("\n");
  const ops = diffLines(a, b);
  const header = [`--- a/${path}`, `+++ b/${path}`];
  return [...header, ...hunks(ops, context)].join("\n");
}

/** Counts of added and removed lines, for one-line summaries. */
export function diffStats(before: string, after: string): { added: number; removed: number } {
  const ops = diffLines(before.split("\n"), after.split("\n"));
  return { added: ops.filter((o) => o.kind === "+").length, removed: ops.filter((o) => o.kind === "-").length };
}

function diffLines(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops: Op[] = a.slice(0, start).map((text) => ({ kind: " ", text }));
  ops.push(...middle(a.slice(start, endA), b.slice(start, endB)));
  ops.push(...a.slice(endA).map((text): Op => ({ kind: " ", text })));
  return ops;
}

function middle(a: string[], b: string[]): Op[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [...a.map((text): Op => ({ kind: "-", text })), ...b.map((text): Op => ({ kind: "+", text }))];
  }
  // Classic LCS table over the changed middle only.
  const n = a.length;
  const m = b.length;
  const table = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * (m + 1) + j] = a[i] === b[j] ? table[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(table[(i + 1) * (m + 1) + j], table[i * (m + 1) + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", text: a[i] });
      i++;
      j++;
    } else if (table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1]) ops.push({ kind: "-", text: a[i++] });
    else ops.push({ kind: "+", text: b[j++] });
  }
  while (i < n) ops.push({ kind: "-", text: a[i++] });
  while (j < m) ops.push({ kind: "+", text: b[j++] });
  return ops;
}

function hunks(ops: Op[], context: number): string[] {
  const out: string[] = [];
  const changed = ops.map((o, i) => (o.kind === " " ? -1 : i)).filter((i) => i >= 0);
  let k = 0;
  while (k < changed.length) {
    const first = changed[k];
    let last = first;
    while (k + 1 < changed.length && changed[k + 1] - last <= context * 2 + 1) last = changed[++k];
    k++;
    const from = Math.max(0, first - context);
    const to = Math.min(ops.length, last + context + 1);
    let oldLine = 1;
    let newLine = 1;
    for (let i = 0; i < from; i++) {
      if (ops[i].kind !== "+") oldLine++;
      if (ops[i].kind !== "-") newLine++;
    }
    const slice = ops.slice(from, to);
    const oldCount = slice.filter((o) => o.kind !== "+").length;
    const newCount = slice.filter((o) => o.kind !== "-").length;
    out.push(`@@ -${oldCount === 0 ? oldLine - 1 : oldLine},${oldCount} +${newCount === 0 ? newLine - 1 : newLine},${newCount} @@`);
    for (const o of slice) out.push(`${o.kind}${o.text}`);
  }
  return out;
}
