/** Turns setup gaps and engine failures into the chat banner's sentence and the action that fixes it. */
import type { ChatProblem } from "./chat/chat-session";
import type { PluginServices } from "./services";
import type { VaultAgentSettings } from "./settings/settings";

/** What blocks a turn before the engine is even asked: no model chosen, runtime missing. */
export async function readinessProblem(settings: VaultAgentSettings, services: PluginServices, openSettings: () => void): Promise<ChatProblem | null> {
  const fix = { label: "Open settings", run: openSettings };
  // A server engine needs its address, not a model file or the built-in runtime.
  if (services.desktopOnly && (settings.engineKind === "builtin" || settings.engineKind === "llama-cpp")) return { message: "This device needs a server engine.", action: fix };
  if (settings.engineKind === "llama-cpp") return settings.modelPath ? null : { message: "No model selected.", action: fix };
  if (settings.engineKind !== "builtin") return settings.serverUrl.trim() ? null : { message: "No server address set.", action: fix };
  if (!settings.modelPath) return { message: "No model selected.", action: fix };
  const runtime = await services.runtime().catch(() => null);
  if (runtime && !runtime.installed) return { message: runtime.updateNeeded ? "Engine update needed." : "The engine is not installed.", action: fix };
  return null;
}

/** The banner for a failure sentence: settings-related failures get the settings action. */
export function explainFailure(message: string, openSettings: () => void): ChatProblem {
  const settingsRelated = /\bmodel\b|\.gguf|runtime|settings|not installed|server/i.test(message);
  return settingsRelated ? { message, action: { label: "Open settings", run: openSettings } } : { message };
}
