/** Decides whether indexing can include embeddings now: a model is chosen, the runtime is there, the vault is on disk. */
import type { ManagedEngine } from "../engine/managed-engine";
import type { PluginServices } from "../services";
import type { VaultAgentSettings } from "../settings/settings";
import type { SemanticSetup, TextHostSetup } from "./memory-service";

export async function semanticSetup(settings: VaultAgentSettings, services: PluginServices, engine: ManagedEngine, indexFolder: string): Promise<SemanticSetup | null> {
  // A server engine embeds on its server (llama-server with --embeddings); the vector index still lives in the host.
  const server = settings.engineKind === "builtin" ? "" : `${settings.engineKind} ${settings.serverUrl} ${settings.serverModel}`.trim();
  const embedModel = server || settings.embeddingModelPath || settings.modelPath;
  if (!embedModel) return null;
  const modelKey = embedModel.split(/[\\/]/).pop() ?? embedModel;
  const precision = services.flatVectorPrecision;
  if (precision) {
    // No engine host here (mobile): a server embeds, and the flat index lives in the vault's index folder, served by the search worker.
    if (!server) return null;
    return { embed: (texts, signal) => engine.embed(texts, { signal }), flat: { folder: `${indexFolder}/vectors`, precision }, modelKey };
  }
  const vectorFolder = services.absolutePath(`${indexFolder}/vectors`);
  if (!vectorFolder) return null;
  const runtime = await services.runtime().catch(() => null);
  if (!runtime?.installed) return null;
  return {
    embed: (texts, signal) => engine.embed(texts, { signal }),
    host: engine,
    vectorFolder,
    modelKey,
  };
}

/**
 * Decides whether the full-text index can live in the engine host: the runtime is installed, a model is chosen (the
 * host starts with one) and the vault is on disk. Otherwise null, and the index stays in the plugin.
 */
export async function textHostSetup(settings: VaultAgentSettings, services: PluginServices, engine: ManagedEngine, indexFolder: string): Promise<TextHostSetup | null> {
  if (!settings.modelPath && settings.engineKind === "builtin") return null;
  const folder = services.absolutePath(indexFolder);
  if (!folder) return null;
  const runtime = await services.runtime().catch(() => null);
  return runtime?.installed ? { host: engine, folder } : null;
}
