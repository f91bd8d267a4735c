/**
 * Loads the three vectra pieces the store needs. vectra's main entry also loads OpenAI, transformers
 * and gRPC code (about 300 ms); the files themselves load in under 100 ms, so they are required
 * directly, falling back to the package entry where that is not possible (a bundled host).
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { IndexCodec, LocalIndex } from "vectra";

export interface VectraParts {
  LocalIndex: typeof LocalIndex;
  JsonCodec: new () => IndexCodec;
  ProtobufCodec: new () => IndexCodec;
}

let cached: VectraParts | null = null;

export async function loadVectra(): Promise<VectraParts> {
  if (cached) return cached;
  try {
    const req = createRequire(import.meta.url);
    const lib = dirname(req.resolve("vectra"));
    cached = {
      LocalIndex: (req(join(lib, "LocalIndex.js")) as { LocalIndex: typeof LocalIndex }).LocalIndex,
      JsonCodec: (req(join(lib, "codecs", "JsonCodec.js")) as { JsonCodec: new () => IndexCodec }).JsonCodec,
      ProtobufCodec: (req(join(lib, "codecs", "ProtobufCodec.js")) as { ProtobufCodec: new () => IndexCodec }).ProtobufCodec,
    };
  } catch {
    const v = await import("vectra");
    cached = { LocalIndex: v.LocalIndex, JsonCodec: v.JsonCodec, ProtobufCodec: v.ProtobufCodec };
  }
  return cached;
}
