/**
 * "llama.cpp on this computer" from the plugin's settings: the user's llama-server (picked, or found on PATH and in
 * the usual install places), started by ManagedLlamaServer when first needed, its output in the plugin's engine log.
 */
import { HostLog } from "../../engine/client/host-log";
import { checkLlamaServer, findLlamaServer, LlamaServerCheckError } from "../../engine/server/managed-llama-binary";
import { ManagedLlamaEngine, type LocalServerEngine } from "../../engine/server/managed-llama-engine";
import { ManagedLlamaServer } from "../../engine/server/managed-llama-server";
import type { ServerEngineConfig } from "../../engine/server/server-config";
import type { LlamaServerReport } from "../settings/local-llama-section";
import type { VaultAgentSettings } from "../settings/settings";

/** Conversations llama-server keeps a slot for (`-np`): as many as the built-in engine keeps sequences for. */
const KEPT_CONVERSATIONS = 2;

const NOT_FOUND =
  "No llama-server found on your PATH or in the usual install places; install llama.cpp (for example brew install llama.cpp or winget install llama.cpp) or pick its llama-server program.";

/** The program to run: the picked one, or the first found. */
function binaryFor(picked: string): string {
  const binary = picked.trim() || findLlamaServer();
  if (!binary) throw new Error(NOT_FOUND);
  return binary;
}

/** What the settings show for a picked ("" = find one) program: its version, or the sentence why it will not run. */
export async function checkLocalLlama(picked: string): Promise<LlamaServerReport> {
  try {
    const found = await checkLlamaServer(binaryFor(picked));
    return { path: found.path, version: found.version };
  } catch (err) {
    if (err instanceof LlamaServerCheckError || (err instanceof Error && err.message === NOT_FOUND)) return { error: err.message };
    throw err;
  }
}

export interface LocalLlamaWiring {
  /** The plugin's engine log. */
  logFile: string;
  /** Where llama-server saves conversations' slots (`--slot-save-path`); absent: nothing is saved. */
  slotDir?: string;
  /** Bound on that folder; least recently used slots go first. Default the host's (300 MB). */
  slotStateBytes?: number;
  /** The llama-server engine for one start's address and key (in an engine host). */
  connect: (config: ServerEngineConfig) => LocalServerEngine;
}

/** The engine for these settings; nothing starts until the first request. */
export function localLlamaEngine(settings: VaultAgentSettings, wiring: LocalLlamaWiring): ManagedLlamaEngine {
  const log = new HostLog(500, wiring.logFile);
  const embeddings = !settings.embeddingModelPath || settings.embeddingModelPath === settings.modelPath;
  const server = new ManagedLlamaServer({
    binary: binaryFor(settings.llamaServerPath),
    model: settings.modelPath,
    parallel: KEPT_CONVERSATIONS,
    ...(settings.contextSize > 0 ? { contextSize: settings.contextSize } : {}),
    ...(settings.threads > 0 ? { threads: settings.threads } : {}),
    ...(settings.gpuLayers >= 0 ? { gpuLayers: settings.gpuLayers } : {}),
    embeddings,
    ...(wiring.slotDir ? { slotSavePath: wiring.slotDir, ...(wiring.slotStateBytes ? { slotStateBytes: wiring.slotStateBytes } : {}) } : {}),
    log: (line) => log.write(`${line}\n`),
  });
  return new ManagedLlamaEngine(server, wiring.connect);
}
