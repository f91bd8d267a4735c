/** The engine host script's text, unpacked from main.js (desktop only: Node's zlib). */
import { brotliDecompressSync } from "zlib";
import { ENGINE_HOST_BROTLI } from "./build-constants";

/** The host text this build embeds; "" outside a build. */
export function engineHostSource(packed: string = ENGINE_HOST_BROTLI): string {
  return packed ? brotliDecompressSync(Buffer.from(packed, "base64")).toString("utf8") : "";
}
