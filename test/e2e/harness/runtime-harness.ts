/**
 * The engine install in the browser harness: a RuntimeService whose download is a timed stand-in (the real
 * installer is tested in vitest against a pack served from 127.0.0.1), so the consent screen, the progress and the
 * ready state can be driven and photographed. It starts "installed", so the chat scenes run; `notInstalled()`
 * turns it back to a first run.
 */
import type { InstallOutcome, InstallProgress, PackOffer } from "../../../src/desktop/runtime/runtime-installer";
import type { RuntimeService, RuntimeStatus } from "../../../src/plugin/runtime/runtime-service";
import type { InstalledRuntime } from "../../../src/desktop/runtime/runtime-store";

const VERSION = "3.21.1-6ffa3883";
const FOLDER = "/home/me/vault/.obsidian/plugins/vault-agent/runtime";
const PACK = { platform: "linux-x64" as const, file: `vault-agent-runtime-${VERSION}-linux-x64.tar.gz`, bytes: 14_183_019, sha256: "d25a28854623272614e4194c9e29210c22527c420bab9dbcdb3c0ba116ad1714", unpackedBytes: 44_403_045 };
const OFFER: PackOffer = {
  pack: PACK,
  version: VERSION,
  url: `https://github.com/vault-agent/vault-agent/releases/download/0.1.0/${PACK.file}`,
  folder: `${FOLDER}/${VERSION}-linux-x64`,
};
const INSTALLED: InstalledRuntime = { id: `${VERSION}-linux-x64`, version: VERSION, platform: "linux-x64", folder: `${FOLDER}/${VERSION}-linux-x64` };

export class HarnessRuntime implements RuntimeService {
  private installed = true;
  /** Set while a download runs: lets the test hold it at a point and then let it finish. */
  private hold = false;
  /** Install calls seen (the consent test checks there are none before the click). */
  installs = 0;

  notInstalled(): void {
    this.installed = false;
  }

  /** Keeps the next download running at about 40% until `release()`. */
  holdDownload(): void {
    this.hold = true;
  }

  release(): void {
    this.hold = false;
  }

  async status(): Promise<RuntimeStatus> {
    return {
      platform: "linux-x64",
      needed: VERSION,
      current: this.installed ? INSTALLED : null,
      developer: false,
      ready: this.installed,
      updateNeeded: false,
      offer: OFFER,
      gpuOffers: [],
      dataFolder: "/home/me/vault/.obsidian/plugins/vault-agent",
    };
  }

  install(options: { signal?: AbortSignal; onProgress?: (p: InstallProgress) => void }): Promise<InstallOutcome> {
    this.installs++;
    return new Promise((resolve, reject) => {
      let received = 0;
      const step = () => {
        if (options.signal?.aborted) return reject(new Error("The download was cancelled; start it again to resume where it stopped."));
        if (!(this.hold && received >= PACK.bytes * 0.4)) received = Math.min(PACK.bytes, received + 1_400_000);
        options.onProgress?.({ stage: "download", pack: PACK, download: { received, total: PACK.bytes, resumedFrom: 0 } });
        if (received < PACK.bytes) return void setTimeout(step, 40);
        for (const stage of ["verify", "extract", "check"] as const) options.onProgress?.({ stage, pack: PACK });
        this.installed = true;
        resolve({ runtime: INSTALLED, check: { gpu: false, nodeLlamaCpp: "3.21.1", loadedFrom: `${INSTALLED.folder}/node_modules/node-llama-cpp/package.json`, vectorHits: 1, ms: 420 } });
      };
      step();
    });
  }

  installFromFile(): Promise<InstallOutcome> {
    return this.install({});
  }

  async remove(): Promise<number> {
    this.installed = false;
    return PACK.unpackedBytes;
  }
}
