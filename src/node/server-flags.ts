/**
 * The server-engine flags `ask`, `eval` and `bench engine` share:
 * `--engine llama-server|openai --url URL [--api-key K] [--server-model NAME]`.
 */
import { existsSync } from "node:fs";
import type { ModelInfo } from "../core/ports/engine";
import { readGgufInfo } from "../engine/gguf/read-gguf-info";
import { normalizeServerUrl, type ServerEngineConfig } from "../engine/server/server-config";
import { UsageError } from "./cli-types";

/** Flag names for `parseArgs`'s `strings`. */
export const SERVER_FLAGS = ["engine", "url", "api-key", "server-model"];

/** For usage lines. */
export const SERVER_USAGE = "[--engine llama-server|openai --url URL [--api-key K] [--server-model NAME]]";

/** The server engine the flags ask for; undefined for the built-in engine (no --engine, or --engine builtin). */
export function serverFromFlags(options: Record<string, string | boolean | undefined>): ServerEngineConfig | undefined {
  const engine = options.engine;
  const url = options.url;
  if (engine === undefined || engine === "builtin") {
    for (const flag of ["url", "api-key", "server-model"]) {
      if (options[flag] !== undefined) throw new UsageError(`--${flag} needs --engine llama-server or --engine openai.`);
    }
    return undefined;
  }
  if (engine !== "llama-server" && engine !== "openai") throw new UsageError(`--engine must be llama-server, openai or builtin, got "${String(engine)}".`);
  if (typeof url !== "string" || url.trim() === "") throw new UsageError(`--engine ${engine} needs the server's address: --url http://host:port.`);
  try {
    normalizeServerUrl(url);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  return {
    kind: engine,
    url,
    ...(typeof options["api-key"] === "string" ? { apiKey: options["api-key"] } : {}),
    ...(typeof options["server-model"] === "string" ? { model: options["server-model"] } : {}),
  };
}

/**
 * Whether a server runs the generated test model: its model file is on this machine and carries the generator's
 * name. Replies of the random weights fill every string to its cap, so the small test-model caps apply there too.
 */
export async function serverRunsTestModel(info: ModelInfo): Promise<boolean> {
  if (!info.path || !existsSync(info.path)) return false;
  try {
    return (await readGgufInfo(info.path)).name.startsWith("Vault Agent test model");
  } catch {
    return false;
  }
}
