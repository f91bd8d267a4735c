/**
 * A small GGUF v3 writer: metadata key/values and tensors in, one byte-exact file image out.
 * Only the value and tensor types the test model needs are supported; output depends on nothing but
 * the input, so the same model description always yields the same bytes.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GgmlType, GgufValueType } from "../../engine/gguf/format";

/** One metadata value with its GGUF type made explicit (JS numbers alone don't say uint32 vs float32). */
export type GgufValue =
  | { type: "uint32"; value: number }
  | { type: "int32"; value: number }
  | { type: "float32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "string[]"; value: readonly string[] }
  | { type: "float32[]"; value: readonly number[] | Float32Array }
  | { type: "int32[]"; value: readonly number[] | Int32Array }
  | { type: "uint32[]"; value: readonly number[] }
  | { type: "bool[]"; value: readonly boolean[] };

/** One tensor: `dims` in ggml order (ne0, the contiguous dimension, first). */
export interface GgufTensor {
  /** llama.cpp tensor name, e.g. "blk.0.attn_q.weight". */
  name: string;
  /** Shape, fastest-varying dimension first. */
  dims: readonly number[];
  /** Stored element type; values are given as float32 and converted. */
  type: "F32" | "F16";
  /** Row-major values, length = product of dims; produced only when the data section is written. */
  values: () => Float32Array;
  /** The stored bytes in order, when a file writer may stream them instead of converting `values` (large models). */
  chunks?: () => Iterable<Uint8Array>;
}

/** Everything in a GGUF file. */
export interface GgufContent {
  /** Written in this order. */
  metadata: ReadonlyArray<readonly [string, GgufValue]>;
  /** Written in this order; data is aligned per tensor. */
  tensors: readonly GgufTensor[];
}

/** Grows a buffer while little-endian values are appended. */
class ByteSink {
  private buf = Buffer.alloc(1 << 16);
  /** Bytes written so far. */
  length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = Buffer.alloc(size);
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
  u32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeUInt32LE(v, this.length);
  }
  i32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeInt32LE(v, this.length);
  }
  u64(v: number): void {
    this.reserve(8);
    this.length = this.buf.writeBigUInt64LE(BigInt(v), this.length);
  }
  f32(v: number): void {
    this.reserve(4);
    this.length = this.buf.writeFloatLE(v, this.length);
  }
  u8(v: number): void {
    this.reserve(1);
    this.length = this.buf.writeUInt8(v, this.length);
  }
  string(s: string): void {
    const bytes = Buffer.from(s, "utf8");
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  padTo(alignment: number): void {
    const pad = (alignment - (this.length % alignment)) % alignment;
    this.reserve(pad);
    this.buf.fill(0, this.length, this.length + pad);
    this.length += pad;
  }
  result(): Buffer {
    return this.buf.subarray(0, this.length);
  }
}

function writeValue(sink: ByteSink, v: GgufValue): void {
  switch (v.type) {
    case "uint32":
      sink.u32(GgufValueType.Uint32);
      sink.u32(v.value);
      return;
    case "int32":
      sink.u32(GgufValueType.Int32);
      sink.i32(v.value);
      return;
    case "float32":
      sink.u32(GgufValueType.Float32);
      sink.f32(v.value);
      return;
    case "bool":
      sink.u32(GgufValueType.Bool);
      sink.u8(v.value ? 1 : 0);
      return;
    case "string":
      sink.u32(GgufValueType.String);
      sink.string(v.value);
      return;
    case "string[]":
      writeArray(sink, GgufValueType.String, v.value, (x) => sink.string(x));
      return;
    case "float32[]":
      writeArray(sink, GgufValueType.Float32, v.value, (x) => sink.f32(x));
      return;
    case "int32[]":
      writeArray(sink, GgufValueType.Int32, v.value, (x) => sink.i32(x));
      return;
    case "uint32[]":
      writeArray(sink, GgufValueType.Uint32, v.value, (x) => sink.u32(x));
      return;
    case "bool[]":
      writeArray(sink, GgufValueType.Bool, v.value, (x) => sink.u8(x ? 1 : 0));
      return;
  }
}

/** An array value: its type tag, the element type, the count, then each element. */
function writeArray<T>(sink: ByteSink, element: number, values: ArrayLike<T> & Iterable<T>, write: (x: T) => void): void {
  sink.u32(GgufValueType.Array);
  sink.u32(element);
  sink.u64(values.length);
  for (const x of values) write(x);
}

/** IEEE 754 half precision from a float32, round-to-nearest-even (what numpy's astype(float16) does). */
export function toHalf(value: number): number {
  const f32 = new Float32Array([value]);
  const x = new Uint32Array(f32.buffer)[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    const half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rem > mid || (rem === mid && half & 1) ? 1 : 0));
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  // A carry out of the mantissa correctly rolls into the exponent (up to infinity).
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half += 1;
  return sign | half;
}

function elementCount(t: GgufTensor): number {
  return t.dims.reduce((a, b) => a * b, 1);
}

function tensorBytes(t: GgufTensor): Buffer {
  const data = t.values();
  if (data.length !== elementCount(t)) throw new Error(`Tensor ${t.name} has ${data.length} values for shape ${t.dims.join("x")}.`);
  if (t.type === "F32") return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const out = Buffer.alloc(data.length * 2);
  for (let i = 0; i < data.length; i++) out.writeUInt16LE(toHalf(data[i]), i * 2);
  return out;
}

const align = (n: number, alignment: number): number => Math.ceil(n / alignment) * alignment;

/**
 * Serializes the header (metadata and tensor directory, padded to the data alignment) without
 * producing any tensor values; `totalBytes` is the size the whole file will have.
 */
export function encodeGgufHeader(content: GgufContent): { header: Buffer; totalBytes: number } {
  const alignment = GGUF_DEFAULT_ALIGNMENT;
  const sink = new ByteSink();
  sink.u32(GGUF_MAGIC);
  sink.u32(3);
  sink.u64(content.tensors.length);
  sink.u64(content.metadata.length);
  for (const [key, value] of content.metadata) {
    sink.string(key);
    writeValue(sink, value);
  }
  let offset = 0;
  for (const t of content.tensors) {
    sink.string(t.name);
    sink.u32(t.dims.length);
    for (const d of t.dims) sink.u64(d);
    sink.u32(t.type === "F32" ? GgmlType.F32 : GgmlType.F16);
    sink.u64(offset);
    offset = align(offset + elementCount(t) * (t.type === "F32" ? 4 : 2), alignment);
  }
  sink.padTo(alignment);
  const header = sink.result();
  return { header, totalBytes: header.length + offset };
}

/** Serializes a whole GGUF v3 file image. */
export function encodeGguf(content: GgufContent): Buffer {
  const alignment = GGUF_DEFAULT_ALIGNMENT;
  const { header, totalBytes } = encodeGgufHeader(content);
  const out = Buffer.alloc(totalBytes);
  header.copy(out, 0);
  let pos = header.length;
  for (const t of content.tensors) {
    const blob = tensorBytes(t);
    blob.copy(out, pos);
    pos = align(pos + blob.length, alignment);
  }
  return out;
}

/**
 * Writes the GGUF file to `path` tensor by tensor (chunks where a tensor has them), so a model of a
 * gigabyte or more never sits in memory whole. Same bytes as `encodeGguf` for tensors without chunks.
 */
export function writeGgufFile(path: string, content: GgufContent): void {
  const alignment = GGUF_DEFAULT_ALIGNMENT;
  const { header } = encodeGgufHeader(content);
  const fd = openSync(path, "w");
  try {
    let pos = 0;
    const put = (bytes: Uint8Array): void => {
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, pos + done);
      pos += bytes.length;
    };
    put(header);
    for (const t of content.tensors) {
      const size = elementCount(t) * (t.type === "F32" ? 4 : 2);
      const start = pos;
      if (t.chunks) for (const c of t.chunks()) put(c);
      else put(tensorBytes(t));
      if (pos - start !== size) throw new Error(`Tensor ${t.name} wrote ${pos - start} bytes for shape ${t.dims.join("x")}.`);
      const pad = align(pos, alignment) - pos;
      if (pad > 0) put(Buffer.alloc(pad));
    }
  } finally {
    closeSync(fd);
  }
}
