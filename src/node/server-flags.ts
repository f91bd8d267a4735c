/**
 * The server-engine flags `ask`, `eval` and `bench engine` share:
 * `--engine llama-server|openai --url URL [--api-key K] [--server-model NAME]`, or
 * `--engine llama-cpp [--llama-server PATH] --model F` (our own llama-server child process).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { ModelInfo } from "../core/ports/engine";
import { readGgufHeader } from "../engine/gguf/read-gguf-info";
import { createNodeEngine } from "../engine/client/node-launcher";
import { findLlamaServer } from "../engine/server/managed-llama-binary";
import { ManagedLlamaEngine } from "../engine/server/managed-llama-engine";
import { ManagedLlamaServer } from "../engine/server/managed-llama-server";
import { normalizeServerUrl, type ServerEngineConfig } from "../engine/server/server-config";
import { UsageError } from "./cli-types";

/** Flag names for `parseArgs`'s `strings`. */
export const SERVER_FLAGS = ["engine", "url", "api-key", "server-model", "llama-server"];

/** For usage lines. */
export const SERVER_USAGE = "[--engine llama-server|openai --url URL [--api-key K] [--server-model NAME] | --engine llama-cpp [--llama-server PATH] --model F]";

/** The server engine the flags ask for; undefined for the built-in engine (no --engine, or --engine builtin). */
export function serverFromFlags(options: Record<string, string | boolean | undefined>): ServerEngineConfig | undefined {
  const engine = options.engine;
  const url = options.url;
  if (engine === "llama-cpp") {
    for (const flag of ["url", "api-key", "server-model"]) {
      if (options[flag] !== undefined) throw new UsageError(`--${flag} is for a server you run; --engine llama-cpp starts its own.`);
    }
    return undefined;
  }
  if (options["llama-server"] !== undefined) throw new UsageError("--llama-server needs --engine llama-cpp.");
  if (engine === undefined || engine === "builtin") {
    for (const flag of ["url", "api-key", "server-model"]) {
      if (options[flag] !== undefined) throw new UsageError(`--${flag} needs --engine llama-server or --engine openai.`);
    }
    return undefined;
  }
  if (engine !== "llama-server" && engine !== "openai") throw new UsageError(`--engine must be llama-cpp, llama-server, openai or builtin, got "${String(engine)}".`);
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
  return isGeneratedModel(info.path);
}

/**
 * Whether a model file was written by `make-test-model` (random weights): the tiny test model carries the generator's
 * name, the family models (tiny or at a released model's size) its description.
 */
export async function isGeneratedModel(path: string): Promise<boolean> {
  const marker = "Vault Agent test model";
  try {
    const { header } = await readGgufHeader(path);
    const field = (key: string): string => {
      const v = header.metadata.get(key);
      return typeof v === "string" ? v : "";
    };
    return field("general.name").startsWith(marker) || field("general.description").startsWith(marker);
  } catch {
    return false;
  }
}

/** What `--engine llama-cpp` runs: the binary (given or found) and the model file. */
export interface LocalLlamaFlags {
  binary: string;
  model: string;
}

/** The llama-server child process the flags ask for; undefined unless --engine llama-cpp. */
export function localLlamaFromFlags(options: Record<string, string | boolean | undefined>): LocalLlamaFlags | undefined {
  if (options.engine !== "llama-cpp") return undefined;
  const model = options.model;
  if (typeof model !== "string" || model.trim() === "") throw new UsageError("--engine llama-cpp needs the model file: --model F.gguf.");
  if (!existsSync(model)) throw new UsageError(`The model file ${resolve(model)} does not exist; pass a GGUF file with --model.`);
  const given = options["llama-server"];
  const binary = typeof given === "string" ? resolve(given) : findLlamaServer();
  if (!binary) throw new UsageError("No llama-server found on PATH or in the usual install places; install llama.cpp or give its path with --llama-server PATH.");
  return { binary, model: resolve(model) };
}

/**
 * The engine for --engine llama-cpp: llama-server started on first use (checked first: a wrong binary is one
 * sentence), the llama-server engine in an engine host per start, the server's output on `log`. `dispose` stops it.
 */
export function localLlamaEngine(flags: LocalLlamaFlags, o: { contextSize?: number; threads?: number; log?: (line: string) => void } = {}): ManagedLlamaEngine {
  const server = new ManagedLlamaServer({
    binary: flags.binary,
    model: flags.model,
    contextSize: o.contextSize ?? 4096,
    ...(o.threads ? { threads: o.threads } : {}),
    ...(o.log ? { log: o.log } : {}),
  });
  return new ManagedLlamaEngine(server, (config) => createNodeEngine({ server: config }));
}
