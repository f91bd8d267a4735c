/**
 * Parses a GGUF header (metadata and tensor directory, not the tensor data) from a byte prefix of the
 * file. Throws `OutOfBytes` when the prefix ends too early, so the caller can read more and retry.
 */
import { GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GgufValueType } from "./format";

/** The prefix given was too short for the header. */
export class OutOfBytes extends Error {
  constructor() {
    super("GGUF header continues past the bytes read.");
  }
}

/** The file is not a GGUF this reader understands. */
export class NotGguf extends Error {}

/** A metadata value: scalars and strings decoded; arrays of more than a few items kept as their length only. */
export type HeaderValue = string | number | bigint | boolean | { arrayLength: number; items?: HeaderValue[] };

/** One entry of the tensor directory. */
export interface HeaderTensor {
  /** Tensor name. */
  name: string;
  /** Shape, ggml order. */
  dims: number[];
  /** ggml type id. */
  type: number;
  /** Byte offset relative to the start of tensor data. */
  offset: number;
}

/** A parsed header. */
export interface GgufHeader {
  /** GGUF format version (2 or 3). */
  version: number;
  /** Metadata by key. */
  metadata: Map<string, HeaderValue>;
  /** The tensor directory. */
  tensors: HeaderTensor[];
  /** Absolute file offset where tensor data begins. */
  dataOffset: number;
}

/** Arrays up to this length keep their items (small lists like rope sections); longer ones (vocabularies) keep only a count. */
const MAX_KEPT_ARRAY_ITEMS = 16;

class Cursor {
  pos = 0;
  constructor(private readonly buf: Buffer) {}
  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new OutOfBytes();
  }
  u8(): number {
    this.need(1);
    return this.buf.readUInt8(this.pos++);
  }
  u32(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  u64(): number {
    this.need(8);
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new NotGguf("a size field in the header is impossibly large");
    return Number(v);
  }
  skip(n: number): void {
    this.need(n);
    this.pos += n;
  }
  string(): string {
    const len = this.u64();
    this.need(len);
    const s = this.buf.toString("utf8", this.pos, this.pos + len);
    this.pos += len;
    return s;
  }
  skipString(): void {
    this.skip(this.u64());
  }
  scalar(type: number): HeaderValue {
    switch (type) {
      case GgufValueType.Uint8:
        return this.u8();
      case GgufValueType.Int8:
        this.need(1);
        return this.buf.readInt8(this.pos++);
      case GgufValueType.Uint16:
        this.need(2);
        this.pos += 2;
        return this.buf.readUInt16LE(this.pos - 2);
      case GgufValueType.Int16:
        this.need(2);
        this.pos += 2;
        return this.buf.readInt16LE(this.pos - 2);
      case GgufValueType.Uint32:
        return this.u32();
      case GgufValueType.Int32:
        this.need(4);
        this.pos += 4;
        return this.buf.readInt32LE(this.pos - 4);
      case GgufValueType.Float32:
        this.need(4);
        this.pos += 4;
        return this.buf.readFloatLE(this.pos - 4);
      case GgufValueType.Bool:
        return this.u8() !== 0;
      case GgufValueType.String:
        return this.string();
      case GgufValueType.Uint64:
        this.need(8);
        this.pos += 8;
        return this.buf.readBigUInt64LE(this.pos - 8);
      case GgufValueType.Int64:
        this.need(8);
        this.pos += 8;
        return this.buf.readBigInt64LE(this.pos - 8);
      case GgufValueType.Float64:
        this.need(8);
        this.pos += 8;
        return this.buf.readDoubleLE(this.pos - 8);
      default:
        throw new NotGguf(`it has an unknown metadata value type ${type}`);
    }
  }
  value(type: number): HeaderValue {
    if (type !== GgufValueType.Array) return this.scalar(type);
    const itemType = this.u32();
    const length = this.u64();
    if (length <= MAX_KEPT_ARRAY_ITEMS) {
      const items: HeaderValue[] = [];
      for (let i = 0; i < length; i++) items.push(this.value(itemType));
      return { arrayLength: length, items };
    }
    const fixed = FIXED_SIZES[itemType];
    if (fixed !== undefined) this.skip(fixed * length);
    else if (itemType === GgufValueType.String) for (let i = 0; i < length; i++) this.skipString();
    else for (let i = 0; i < length; i++) this.value(itemType);
    return { arrayLength: length };
  }
}

const FIXED_SIZES: Record<number, number> = {
  [GgufValueType.Uint8]: 1,
  [GgufValueType.Int8]: 1,
  [GgufValueType.Uint16]: 2,
  [GgufValueType.Int16]: 2,
  [GgufValueType.Uint32]: 4,
  [GgufValueType.Int32]: 4,
  [GgufValueType.Float32]: 4,
  [GgufValueType.Bool]: 1,
  [GgufValueType.Uint64]: 8,
  [GgufValueType.Int64]: 8,
  [GgufValueType.Float64]: 8,
};

/** Parses the header from `prefix`; `prefix` may be the whole file or just its start. */
export function parseGgufHeader(prefix: Buffer): GgufHeader {
  const c = new Cursor(prefix);
  const magic = Buffer.alloc(4);
  magic.writeUInt32LE(GGUF_MAGIC);
  const shown = Math.min(4, prefix.length);
  if (!prefix.subarray(0, shown).equals(magic.subarray(0, shown))) throw new NotGguf('it does not start with the "GGUF" signature');
  c.skip(4);
  const version = c.u32();
  if (version !== 2 && version !== 3) throw new NotGguf(`it is GGUF version ${version}, and only versions 2 and 3 are supported`);
  const tensorCount = c.u64();
  const kvCount = c.u64();
  // A header claiming more entries than its bytes could hold is corrupt, not just long.
  if (tensorCount > 1_000_000 || kvCount > 1_000_000) throw new NotGguf("its header counts are implausible");
  const metadata = new Map<string, HeaderValue>();
  for (let i = 0; i < kvCount; i++) {
    const key = c.string();
    metadata.set(key, c.value(c.u32()));
  }
  const tensors: HeaderTensor[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = c.string();
    const nDims = c.u32();
    if (nDims > 8) throw new NotGguf(`tensor ${name} has ${nDims} dimensions`);
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(c.u64());
    tensors.push({ name, dims, type: c.u32(), offset: c.u64() });
  }
  const alignmentValue = metadata.get("general.alignment");
  const alignment = typeof alignmentValue === "number" && alignmentValue > 0 ? alignmentValue : GGUF_DEFAULT_ALIGNMENT;
  const dataOffset = Math.ceil(c.pos / alignment) * alignment;
  return { version, metadata, tensors, dataOffset };
}
