/**
 * The check a runtime passes before the plugin switches to it: the engine host starts from the runtime's folder
 * (the plugin's way: its launcher, the host script written next to the packages) and answers `runtime.check`, which
 * loads node-llama-cpp's binary with `build: "never"` and round-trips a vectra index.
 */
import { EngineClient } from "../../engine/client/engine-client";
import type { HostLauncher } from "../../engine/client/launcher";
import type { RuntimeCheckResult } from "../../engine/client/host-protocol";
import { ensureHostScript } from "../engine-host/host-script";
import { nodeModule } from "../../engine/node-builtins";

const path = nodeModule("path");

export interface SmokeTestOptions {
  /** The runtime folder (holds node_modules). */
  folder: string;
  /** The host build to write there. */
  host: { source: string; hash: string };
  /** Starts the host script from that folder. */
  launcher: (folder: string, hostScript: string) => HostLauncher;
  /** The backend the pack carries: false (CPU), or the GPU kind. */
  gpu: false | "metal" | "vulkan" | "cuda";
  /** Give up after this long; default 120 s (a first load on a slow disk). */
  timeoutMs?: number;
}

export class SmokeTestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SmokeTestError";
  }
}

export async function smokeTest(options: SmokeTestOptions): Promise<RuntimeCheckResult> {
  const script = await ensureHostScript(options.folder, options.host.source, options.host.hash);
  const client = new EngineClient(options.launcher(options.folder, script.path), { logLines: 50 });
  const timeoutMs = options.timeoutMs ?? 120_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const result = (await Promise.race([
      client.request("runtime.check", { gpu: options.gpu }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SmokeTestError(`The engine did not answer its start-up check within ${Math.round(timeoutMs / 1000)} seconds.`)), timeoutMs);
      }),
    ])) as RuntimeCheckResult;
    const from = path.resolve(result.loadedFrom);
    if (!from.startsWith(path.resolve(options.folder) + path.sep)) {
      throw new SmokeTestError(`The engine loaded node-llama-cpp from ${from}, not from the new runtime folder.`);
    }
    if (result.vectorHits !== 1) throw new SmokeTestError("The engine's vector index did not return what was written to it.");
    return result;
  } catch (error) {
    if (error instanceof SmokeTestError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    const tail = client.log.lines().filter((l) => l.trim() && !l.startsWith("[engine-client]")).slice(-2).join(" ");
    throw new SmokeTestError(`The engine failed its start-up check (${detail})${tail ? `: ${tail}` : ""}.`.replace(/\.\.$/, "."));
  } finally {
    if (timer) clearTimeout(timer);
    await client.shutdown(2000).catch(() => undefined);
  }
}
