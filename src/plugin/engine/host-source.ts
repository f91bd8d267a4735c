/** The engine host script's text, unpacked from main.js (desktop only: Node's zlib). */
import { ENGINE_HOST_BROTLI } from "./build-constants";
import { ALL_LANGUAGES } from "../../core/router/languages/all";
import type { RouterLanguage } from "../../core/router/languages/types";
import { nodeModule } from "../../engine/node-builtins";
import { fromZ85 } from "../../core/text/z85";

const nodeZlib = nodeModule("zlib");

/**
 * The string literal main.js's copy of the host holds in place of the router's language tables
 * (esbuild.config.mjs, HOST_LANGUAGES_SLOT): the host parses the tables from it at load.
 */
const LANGUAGES_SLOT = JSON.stringify("__VAULT_AGENT_ROUTER_LANGUAGES__");

/**
 * The host text this build embeds, its language slot filled with the tables main.js has loaded (`languages`), so the
 * host's text index drops the same function words as main.js's; "" outside a build.
 */
export function engineHostSource(packed: string = ENGINE_HOST_BROTLI, languages: readonly RouterLanguage[] = ALL_LANGUAGES): string {
  if (!packed) return "";
  const slotted = new TextDecoder().decode(nodeZlib.brotliDecompressSync(fromZ85(packed)));
  return slotted.replace(LANGUAGES_SLOT, () => JSON.stringify(JSON.stringify(languages)));
}
