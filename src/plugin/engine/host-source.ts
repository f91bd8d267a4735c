/** The engine host script's text, unpacked from main.js (desktop only: Node's zlib). */
import { ENGINE_HOST_BROTLI } from "./build-constants";
import { nodeModule } from "../../engine/node-builtins";

const nodeZlib = nodeModule("zlib");

/** The host text this build embeds; "" outside a build. */
export function engineHostSource(packed: string = ENGINE_HOST_BROTLI): string {
  if (!packed) return "";
  const bytes = Uint8Array.from(atob(packed), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(nodeZlib.brotliDecompressSync(bytes));
}
