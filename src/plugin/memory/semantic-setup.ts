/** Decides whether indexing can include embeddings now: a model is chosen, the runtime is there, the vault is on disk. */
import type { ManagedEngine } from "../engine/managed-engine";
import type { PluginServices } from "../services";
import type { VaultAgentSettings } from "../settings/settings";
import type { SemanticSetup } from "./memory-service";

export async function semanticSetup(settings: VaultAgentSettings, services: PluginServices, engine: ManagedEngine, indexFolder: string): Promise<SemanticSetup | null> {
  const embedModel = settings.embeddingModelPath || settings.modelPath;
  if (!embedModel) return null;
  const vectorFolder = services.absolutePath(`${indexFolder}/vectors`);
  if (!vectorFolder) return null;
  const runtime = await services.runtime().catch(() => null);
  if (!runtime?.installed) return null;
  return {
    embed: (texts, signal) => engine.embed(texts, { signal }),
    host: engine,
    vectorFolder,
    modelKey: embedModel.split(/[\\/]/).pop() ?? embedModel,
  };
}
