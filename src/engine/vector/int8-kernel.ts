/**
 * The int8 dot product of the flat store's scan, as a 200-byte WebAssembly module with 128-bit SIMD: 16 signed bytes of
 * a vector against 16 of the query per two instructions, where plain JavaScript does one multiply-add at a time (a scan
 * of 173,000 vectors of 384 numbers took 60-100 ms of CPU in JavaScript). Written out byte by byte below (no toolchain:
 * the module is small enough to read), so the worker's script carries it without a file to fetch. Where WebAssembly or
 * its SIMD is missing (an old WebView) `int8Kernel()` returns null and the store scans in JavaScript.
 *
 * The module imports its memory ("m"."m") and exports one function:
 * `scan(query, vectors, count, dim, out)`: for each of `count` vectors of `dim` signed bytes from byte `vectors`, the dot
 * product with the `dim` signed bytes at `query`, as an i32 at `out + 4 k`. `dim` is a positive multiple of 16.
 */

/** The function the module exports. */
export type Int8Scan = (query: number, vectors: number, count: number, dim: number, out: number) => void;

export interface Int8Kernel {
  memory: WebAssembly.Memory;
  scan: Int8Scan;
}

const SIMD = 0xfd;
const local = { get: 0x20, set: 0x21 };
const i32 = { const: 0x41, add: 0x6a, sub: 0x6b, eqz: 0x45, ltU: 0x49, store: 0x36 };
const ctl = { block: 0x02, loop: 0x03, end: 0x0b, brIf: 0x0d, empty: 0x40 };
/** SIMD opcodes (after the 0xfd prefix, LEB128). */
const v128 = {
  const: [0x0c],
  load8x8s: [0x01],
  dotI16x8: [0xba, 0x01],
  i32x4Add: [0xae, 0x01],
  extractLane: [0x1b],
};
// Parameters 0-4, then locals: j (5, i32), acc (6, v128), acc2 (7, v128).
const [Q, V, N, DIM, OUT, J, ACC, ACC2] = [0, 1, 2, 3, 4, 5, 6, 7];

/** `acc += dot(load8x8_s(V + J + at), load8x8_s(Q + J + at))` */
function accumulate(acc: number, at: number): number[] {
  return [
    local.get, acc,
    local.get, V, local.get, J, i32.add, SIMD, ...v128.load8x8s, 0x03, at,
    local.get, Q, local.get, J, i32.add, SIMD, ...v128.load8x8s, 0x03, at,
    SIMD, ...v128.dotI16x8,
    SIMD, ...v128.i32x4Add,
    local.set, acc,
  ];
}

const zero = [SIMD, ...v128.const, ...new Array<number>(16).fill(0)];
const body = [
  // locals: one i32, two v128
  0x02, 0x01, 0x7f, 0x02, 0x7b,
  ctl.block, ctl.empty,
  local.get, N, i32.eqz, ctl.brIf, 0,
  ctl.loop, ctl.empty,
  ...zero, local.set, ACC,
  ...zero, local.set, ACC2,
  i32.const, 0, local.set, J,
  ctl.loop, ctl.empty,
  // 16 bytes a turn, in two sums (offsets 0 and 8 in the memarg)
  ...accumulate(ACC, 0),
  ...accumulate(ACC2, 8),
  local.get, J, i32.const, 16, i32.add, local.set, J,
  local.get, J, local.get, DIM, i32.ltU, ctl.brIf, 0,
  ctl.end,
  // out[k] = the four lanes of both sums added
  local.get, OUT,
  local.get, ACC, local.get, ACC2, SIMD, ...v128.i32x4Add, local.set, ACC,
  local.get, ACC, SIMD, ...v128.extractLane, 0,
  local.get, ACC, SIMD, ...v128.extractLane, 1, i32.add,
  local.get, ACC, SIMD, ...v128.extractLane, 2, i32.add,
  local.get, ACC, SIMD, ...v128.extractLane, 3, i32.add,
  i32.store, 0x02, 0x00,
  local.get, OUT, i32.const, 4, i32.add, local.set, OUT,
  local.get, V, local.get, DIM, i32.add, local.set, V,
  local.get, N, i32.const, 1, i32.sub, local.set, N,
  local.get, N, ctl.brIf, 0,
  ctl.end,
  ctl.end,
  ctl.end,
];

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** The module's bytes. */
export function int8KernelBytes(): Uint8Array<ArrayBuffer> {
  const name = (s: string) => [s.length, ...[...s].map((c) => c.charCodeAt(0))];
  return Uint8Array.from([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    // type 0: (i32 i32 i32 i32 i32) -> ()
    ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]),
    // import "m"."m": a memory of at least one page
    ...section(2, [0x01, ...name("m"), ...name("m"), 0x02, 0x00, 0x01]),
    // one function of type 0
    ...section(3, [0x01, 0x00]),
    // export "scan" = function 0
    ...section(7, [0x01, ...name("scan"), 0x00, 0x00]),
    ...section(10, [0x01, ...leb(body.length), ...body]),
  ]);
}

let compiled: WebAssembly.Module | null | undefined;

/**
 * A kernel over a fresh memory of `pages` pages of 64 KiB (it grows with `memory.grow`), or null where this platform
 * cannot run it (no WebAssembly, no SIMD, a policy that forbids compiling).
 */
export function int8Kernel(pages = 1): Int8Kernel | null {
  try {
    if (compiled === undefined) {
      const bytes = int8KernelBytes();
      compiled = typeof WebAssembly === "object" && WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    }
    if (compiled === null) return null;
    const memory = new WebAssembly.Memory({ initial: pages });
    const instance = new WebAssembly.Instance(compiled, { m: { m: memory } });
    return { memory, scan: instance.exports.scan as Int8Scan };
  } catch {
    compiled = null;
    return null;
  }
}
