/**
 * `$ref`: references resolve through the schema document, and recursion is unrolled to the configured
 * depth (a reference open that many times on the current path, or a chain of mutually recursive
 * references two longer, is unavailable). Targets count as open while they compile.
 */
import type { GbnfExpr } from "./gbnf-ast";
import type { Ctx, CompileContext } from "./compile-context";

export function enter(compiler: CompileContext, target: object): void {
  compiler.open.set(target, (compiler.open.get(target) ?? 0) + 1);
  const cycle = compiler.shapes.cycle(target);
  if (cycle !== undefined) compiler.openCycles.set(cycle, (compiler.openCycles.get(cycle) ?? 0) + 1);
}

export function leave(compiler: CompileContext, target: object): void {
  const n = (compiler.open.get(target) ?? 1) - 1;
  if (n > 0) compiler.open.set(target, n);
  else compiler.open.delete(target);
  const cycle = compiler.shapes.cycle(target);
  if (cycle !== undefined) compiler.openCycles.set(cycle, (compiler.openCycles.get(cycle) ?? 1) - 1);
}

/**
 * How deep the current path already is in the reference cycles a subschema can reach (the open
 * `$ref` targets on those cycles). A subschema's rule is kept per chain length only, so a large
 * family of mutually recursive definitions costs (definitions × chain lengths) compiles, not one
 * per path. Reusing a rule built under another path only moves where recursion is cut, which
 * keeps the grammar sound and finite.
 */
export function chainLength(compiler: CompileContext, node: object, base: string): number {
  if (compiler.openCycles.size === 0) return 0;
  const bits = compiler.shapes.reach(node, base);
  if (bits === 0n) return 0;
  let n = 0;
  for (const [cycle, count] of compiler.openCycles) if (count > 0 && (bits >> BigInt(cycle)) & 1n) n += count;
  return n;
}

export function compileRef(compiler: CompileContext, ref: string, ctx: Ctx): GbnfExpr | null {
  const r = compiler.doc.resolve(ref, ctx.base);
  if (typeof r === "string") {
    compiler.relax(ctx.pointer, "$ref", `${r}, so any JSON value is allowed there`);
    return compiler.anyValueCapped(ctx.pointer);
  }
  const target = r.schema;
  if (typeof target !== "object") return compiler.value(target, { base: r.base, pointer: r.pointer });
  const depth = compiler.open.get(target) ?? 0;
  const chain = chainLength(compiler, target, r.base);
  // Recursion is unrolled: past the configured depth (or a chain of mutually recursive references
  // two longer than that) the recursive branch is simply unavailable.
  if (depth >= compiler.options.recursionDepth || chain >= compiler.options.recursionDepth + 2) {
    compiler.cap(r.pointer, "depth", compiler.options.recursionDepth);
    return null;
  }
  const key = String(chain);
  let memo = compiler.refMemo.get(target);
  if (memo?.has(key)) return memo.get(key)!;
  enter(compiler, target);
  let e: GbnfExpr | null;
  try {
    e = compiler.value(target, { base: r.base, pointer: r.pointer });
  } finally {
    leave(compiler, target);
  }
  const name = r.pointer.split("/").pop() || "root";
  const named = e && e.kind !== "ref" && e.kind !== "literal" ? compiler.rules.add(`${compiler.hint}-${name}`, e) : e;
  if (!memo) {
    memo = new Map<string, GbnfExpr | null>();
    compiler.refMemo.set(target, memo);
  }
  memo.set(key, named);
  return named;
}
