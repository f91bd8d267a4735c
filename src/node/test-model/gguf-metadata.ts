/**
 * Reads every metadata value of a GGUF file in full, with its GGUF type, so a family test model can
 * copy a real vocabulary's `tokenizer.*` keys byte for byte (the engine's header reader keeps only
 * the lengths of long arrays). Only the value types vocabulary files use are decoded.
 */
import { readFileSync } from "node:fs";
import { GGUF_MAGIC, GgufValueType } from "../../engine/gguf/format";
import type { GgufValue } from "./gguf-writer";

class Reader {
  pos = 0;
  constructor(
    private readonly buf: Buffer,
    private readonly path: string,
  ) {}
  u32(): number {
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }
  u64(): number {
    const v = Number(this.buf.readBigUInt64LE(this.pos));
    this.pos += 8;
    return v;
  }
  string(): string {
    const len = this.u64();
    const s = this.buf.toString("utf8", this.pos, this.pos + len);
    this.pos += len;
    return s;
  }
  value(type: number, key: string): GgufValue {
    const b = this.buf;
    switch (type) {
      case GgufValueType.Uint32:
        return { type: "uint32", value: this.u32() };
      case GgufValueType.Int32:
        this.pos += 4;
        return { type: "int32", value: b.readInt32LE(this.pos - 4) };
      case GgufValueType.Float32:
        this.pos += 4;
        return { type: "float32", value: b.readFloatLE(this.pos - 4) };
      case GgufValueType.Bool:
        return { type: "bool", value: b.readUInt8(this.pos++) !== 0 };
      case GgufValueType.String:
        return { type: "string", value: this.string() };
      case GgufValueType.Array: {
        const itemType = this.u32();
        const n = this.u64();
        if (itemType === GgufValueType.String) {
          const out: string[] = new Array<string>(n);
          for (let i = 0; i < n; i++) out[i] = this.string();
          return { type: "string[]", value: out };
        }
        if (itemType === GgufValueType.Float32) {
          const out = new Float32Array(n);
          for (let i = 0; i < n; i++) out[i] = b.readFloatLE(this.pos + 4 * i);
          this.pos += 4 * n;
          return { type: "float32[]", value: out };
        }
        if (itemType === GgufValueType.Int32) {
          const out = new Int32Array(n);
          for (let i = 0; i < n; i++) out[i] = b.readInt32LE(this.pos + 4 * i);
          this.pos += 4 * n;
          return { type: "int32[]", value: out };
        }
        if (itemType === GgufValueType.Bool) {
          const out: boolean[] = [];
          for (let i = 0; i < n; i++) out.push(b.readUInt8(this.pos + i) !== 0);
          this.pos += n;
          return { type: "bool[]", value: out };
        }
        if (itemType === GgufValueType.Uint32) {
          const out: number[] = [];
          for (let i = 0; i < n; i++) out.push(b.readUInt32LE(this.pos + 4 * i));
          this.pos += 4 * n;
          return { type: "uint32[]", value: out };
        }
        throw new Error(`${this.path}: metadata key ${key} is an array of GGUF type ${itemType}, which this reader does not copy.`);
      }
      default:
        throw new Error(`${this.path}: metadata key ${key} has GGUF type ${type}, which this reader does not copy.`);
    }
  }
}

/** All metadata of the GGUF at `path`, in file order. */
export function readGgufMetadata(path: string): Map<string, GgufValue> {
  const buf = readFileSync(path);
  const r = new Reader(buf, path);
  if (r.u32() !== GGUF_MAGIC) throw new Error(`${path} is not a GGUF file.`);
  const version = r.u32();
  if (version !== 3) throw new Error(`${path} is GGUF version ${version}; only version 3 vocabularies are read.`);
  r.u64(); // tensor count: vocabulary files have none worth copying
  const count = r.u64();
  const out = new Map<string, GgufValue>();
  for (let i = 0; i < count; i++) {
    const key = r.string();
    out.set(key, r.value(r.u32(), key));
  }
  return out;
}
