/** Builds the fake App and hands it out under Obsidian's real types, so code under test type-checks as in the app. */
import type { App as RealApp } from "obsidian";
import { App } from "./app";
import { MemoryBackend, type VaultBackend } from "./vault";

export function fakeApp(backend: VaultBackend = new MemoryBackend()): { app: RealApp; fake: App } {
  const fake = new App(backend);
  return { app: fake as unknown as RealApp, fake };
}
