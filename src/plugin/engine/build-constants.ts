import type { PacksManifest } from "../../desktop/runtime/pack-format";

/**
 * Values esbuild.config.mjs injects at build time: the engine host script (compressed) and its hash, and the runtime
 * packages the plugin folder needs. Outside a build (unit tests) they are empty.
 */
declare const __ENGINE_HOST_BROTLI__: string | undefined;
declare const __ENGINE_HOST_HASH__: string | undefined;
declare const __RUNTIME_DEPENDENCIES__: Record<string, string> | undefined;
declare const __RUNTIME_PACKS__: PacksManifest | undefined;

/**
 * The bundled engine host (an ES module for Node), brotli-compressed and in Z85: a third of its text's size in
 * main.js. Only the desktop unpacks it (host-source.ts, with Node's zlib).
 */
export const ENGINE_HOST_BROTLI: string = typeof __ENGINE_HOST_BROTLI__ === "string" ? __ENGINE_HOST_BROTLI__ : "";
/** A short hash of the host text; a different hash on disk means the host script is outdated. */
export const ENGINE_HOST_HASH: string = typeof __ENGINE_HOST_HASH__ === "string" ? __ENGINE_HOST_HASH__ : "";
/** Package name → exact version, for the plugin folder's runtime install. */
export const RUNTIME_DEPENDENCIES: Record<string, string> =
  typeof __RUNTIME_DEPENDENCIES__ === "object" && __RUNTIME_DEPENDENCIES__ !== null ? __RUNTIME_DEPENDENCIES__ : { "node-llama-cpp": "3.21.1", vectra: "0.15.0", protobufjs: "8.8.1" };
/** runtime-packs.json as committed when main.js was built: the runtime version and every pack's size and sha256. */
export const RUNTIME_PACKS: PacksManifest =
  typeof __RUNTIME_PACKS__ === "object" && __RUNTIME_PACKS__ !== null ? __RUNTIME_PACKS__ : { version: "", releaseBase: "", packs: [] };
