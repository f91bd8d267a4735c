/**
 * Installs a runtime pack, only when the user clicked for it: download (progress, cancel, resume) into
 * `runtime/downloads/`, the sha256 checked against runtime-packs.json before anything is unpacked, strict extraction
 * into a staging folder, the smoke test from there, then a rename into `runtime/<version>-<platform>[-gpu]` and an
 * atomic switch of the platform's pointer. The previous runtime stays until the new one has passed; a failed install
 * leaves it in place. A GPU pack that fails its check falls back to the default pack.
 */
import type { HostLauncher } from "../../engine/client/launcher";
import type { RuntimeCheckResult } from "../../engine/client/host-protocol";
import { DownloadError, downloadFile, freeDiskBytes, partPath, type DownloadProgress } from "../download/model-download";
import { PLATFORMS, findPack, packUrl, type GpuKind, type PackEntry, type PacksManifest } from "./pack-format";
import { RuntimeStore, type InstalledRuntime } from "./runtime-store";
import { smokeTest } from "./smoke-test";
import { ExtractError, extractPack } from "./tar-extract";
import { nodeModule } from "../../engine/node-builtins";

const nodeCrypto = nodeModule("crypto");
const fs = nodeModule("fs");
const path = nodeModule("path");

const GPU_LABELS: Record<GpuKind, string> = { vulkan: "Vulkan", cuda: "CUDA" };

export type InstallStage = "download" | "verify" | "extract" | "check";

export interface InstallProgress {
  stage: InstallStage;
  /** The pack being installed. */
  pack: PackEntry;
  /** Download bytes, while downloading. */
  download?: DownloadProgress;
}

export interface InstallOutcome {
  runtime: InstalledRuntime;
  check: RuntimeCheckResult;
  /** A sentence when a GPU pack failed and the default pack was installed instead. */
  fellBack?: string;
}

export interface RuntimeInstallerOptions {
  store: RuntimeStore;
  /** The runtime this plugin build needs (runtime-packs.json, embedded at build time). */
  manifest: PacksManifest;
  /** The plugin's version: its release holds the packs. */
  pluginVersion: string;
  /** A mirror folder URL that replaces the release location; "" = the release. */
  mirror: () => string;
  /** The engine host build to write into the runtime folder. */
  host: { source: string; hash: string };
  /** Starts the host script from a runtime folder (Obsidian's binary as Node in the plugin). */
  launcher: (folder: string, hostScript: string) => HostLauncher;
  /** Injectable for tests: free bytes on a disk. */
  freeBytes?: (folder: string) => Promise<number>;
  /** Download stall limit; default 30 s. */
  stallMs?: number;
  /** Smoke test limit; default 120 s. */
  checkTimeoutMs?: number;
}

/** One sentence a user can act on; nothing was switched. */
export class RuntimeInstallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RuntimeInstallError";
  }
}

/** What the consent screen shows for one pack. */
export interface PackOffer {
  pack: PackEntry;
  version: string;
  url: string;
  /** Where it is unpacked. */
  folder: string;
  /** The default pack offered as the fallback of a GPU pack. */
  fallback?: PackEntry;
}

async function sha256Of(file: string): Promise<string> {
  const hash = nodeCrypto.createHash("sha256");
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest("hex");
}

export class RuntimeInstaller {
  constructor(private readonly options: RuntimeInstallerOptions) {}

  get store(): RuntimeStore {
    return this.options.store;
  }

  /** The runtime version this build needs. */
  get neededVersion(): string {
    return this.options.manifest.version;
  }

  /** GPU variants there are packs for on this platform. */
  gpuVariants(): GpuKind[] {
    return this.options.manifest.packs.filter((p) => p.platform === this.store.platform && p.gpu).map((p) => p.gpu!);
  }

  /** What would be downloaded for this platform (and variant), or null when no pack exists for it. */
  offer(gpu?: GpuKind): PackOffer | null {
    const pack = findPack(this.options.manifest, this.store.platform, gpu);
    if (!pack) return null;
    return {
      pack,
      version: this.options.manifest.version,
      url: packUrl(this.options.manifest, this.options.pluginVersion, pack, this.options.mirror()),
      folder: this.store.folderFor(this.options.manifest.version, gpu),
      fallback: gpu ? findPack(this.options.manifest, this.store.platform) : undefined,
    };
  }

  /** Downloads, verifies and installs this platform's pack; a failing GPU pack falls back to the default one. */
  async install(options: { gpu?: GpuKind; signal?: AbortSignal; onProgress?: (p: InstallProgress) => void } = {}): Promise<InstallOutcome> {
    const offer = this.offer(options.gpu);
    if (!offer) throw new RuntimeInstallError(`There is no ${options.gpu ? `${options.gpu} ` : ""}engine pack for ${this.store.platform} in this version of the plugin.`);
    try {
      const archive = await this.download(offer, options.signal, options.onProgress);
      return await this.installArchive(archive, offer.pack, options.onProgress, true);
    } catch (error) {
      if (!(error instanceof GpuCheckError)) throw error;
      const label = options.gpu ? GPU_LABELS[options.gpu] : "GPU";
      if (!offer.fallback) throw new RuntimeInstallError(`The ${label} engine failed its start-up check (${error.message}); nothing was switched.`);
      const fallback = await this.install({ signal: options.signal, onProgress: options.onProgress });
      return { ...fallback, fellBack: `The ${label} engine could not start on this computer (${error.message.replace(/\.$/, "")}); the CPU engine was installed instead.` };
    }
  }

  /** "Install from file…": a pack downloaded by hand, identified and verified by its sha256. */
  async installFromFile(file: string, onProgress?: (p: InstallProgress) => void): Promise<InstallOutcome> {
    let stat: import("fs").Stats;
    try {
      stat = await fs.promises.stat(file);
    } catch {
      throw new RuntimeInstallError(`${file} could not be read; choose the downloaded .tar.gz pack.`);
    }
    const named = this.options.manifest.packs.find((p) => p.file === path.basename(file));
    const first = named ?? this.options.manifest.packs[0];
    onProgress?.({ stage: "verify", pack: first });
    const sha = await sha256Of(file);
    const pack = this.options.manifest.packs.find((p) => p.sha256 === sha && p.bytes === stat.size);
    if (!pack) {
      throw new RuntimeInstallError(
        named
          ? `${path.basename(file)} does not match the checksum this plugin version lists for it; it may be damaged or altered, so nothing was installed.`
          : `${path.basename(file)} is not an engine pack of runtime ${this.neededVersion}: its checksum matches none of the packs this plugin version lists.`,
      );
    }
    if (pack.platform !== this.store.platform) {
      throw new RuntimeInstallError(`${pack.file} is the engine for ${pack.platform}; this computer needs the ${this.store.platform} pack.`);
    }
    return this.installArchive(file, pack, onProgress, false);
  }

  /** "Remove engine": every runtime of this platform and its downloads. Returns the bytes freed. */
  remove(): Promise<number> {
    return this.store.removeAll();
  }

  private async download(offer: PackOffer, signal?: AbortSignal, onProgress?: (p: InstallProgress) => void): Promise<string> {
    const { pack } = offer;
    const destination = path.join(this.store.downloads, pack.file);
    onProgress?.({ stage: "download", pack });
    if (fs.existsSync(destination)) {
      // A complete earlier download: use it if it still verifies.
      if ((await sha256Of(destination)) === pack.sha256) return destination;
      await fs.promises.rm(destination, { force: true });
    }
    const free = this.options.freeBytes ?? freeDiskBytes;
    try {
      return await downloadFile({
        url: offer.url,
        destination,
        label: pack.file,
        expectedBytes: pack.bytes,
        signal,
        stallMs: this.options.stallMs,
        freeBytes: free,
        onProgress: (download) => onProgress?.({ stage: "download", pack, download }),
        check: async (part) => {
          onProgress?.({ stage: "verify", pack });
          const size = (await fs.promises.stat(part)).size;
          const sha = await sha256Of(part);
          if (size === pack.bytes && sha === pack.sha256) return null;
          return new DownloadError(
            `The downloaded ${pack.file} does not match the checksum this plugin version expects (it may be damaged or altered); it was deleted and nothing was installed.`,
            "checksum",
          );
        },
      });
    } catch (error) {
      if (error instanceof DownloadError) throw new RuntimeInstallError(error.message);
      throw error;
    }
  }

  /** Extracts a verified archive into staging, smoke-tests it, and switches to it. */
  private async installArchive(archive: string, pack: PackEntry, onProgress: ((p: InstallProgress) => void) | undefined, removeArchive: boolean): Promise<InstallOutcome> {
    const { store } = this;
    const version = this.options.manifest.version;
    await fs.promises.mkdir(store.root, { recursive: true });
    const id = path.basename(store.folderFor(version, pack.gpu));
    const staging = path.join(store.root, `.staging-${id}-${nodeCrypto.randomBytes(4).toString("hex")}`);
    onProgress?.({ stage: "extract", pack });
    const free = await (this.options.freeBytes ?? freeDiskBytes)(store.root);
    if (free < pack.unpackedBytes) {
      throw new RuntimeInstallError(`Not enough free disk space to unpack the engine: it needs ${mb(pack.unpackedBytes)} MB and ${mb(free)} MB is free; free some space and try again.`);
    }
    try {
      // The manifest knows the exact unpacked size: a pack that unpacks to more is refused.
      await extractPack(archive, staging, { maxTotalBytes: pack.unpackedBytes });
      const info = JSON.parse(await fs.promises.readFile(path.join(staging, "runtime.json"), "utf8")) as { version?: string; platform?: string; gpu?: string };
      if (info.version !== version || info.platform !== pack.platform || (info.gpu ?? undefined) !== pack.gpu) {
        throw new RuntimeInstallError(`The pack describes itself as ${info.version}-${info.platform}${info.gpu ? `-${info.gpu}` : ""}, not the ${id} it should be; nothing was installed.`);
      }
      onProgress?.({ stage: "check", pack });
      let check: RuntimeCheckResult;
      try {
        check = await smokeTest({
          folder: staging,
          host: this.options.host,
          launcher: this.options.launcher,
          gpu: pack.gpu ?? PLATFORMS[pack.platform].defaultGpu,
          timeoutMs: this.options.checkTimeoutMs,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (pack.gpu) throw new GpuCheckError(message);
        throw new RuntimeInstallError(`${message} The engine was not switched; the previous one (if any) is still in use.`);
      }
      // The folder's final name: move a same-named earlier install aside first, so the rename cannot fail on it.
      const final = store.folderFor(version, pack.gpu);
      if (fs.existsSync(final)) await fs.promises.rename(final, path.join(store.root, `.old-${id}-${nodeCrypto.randomBytes(4).toString("hex")}`));
      await fs.promises.rename(staging, final);
      await store.switchTo(id);
      await store.prune(id);
      if (removeArchive) await fs.promises.rm(archive, { force: true });
      await fs.promises.rm(partPath(archive), { force: true });
      return { runtime: (await store.current())!, check };
    } catch (error) {
      await fs.promises.rm(staging, { recursive: true, force: true });
      if (error instanceof RuntimeInstallError || error instanceof GpuCheckError) throw error;
      if (error instanceof ExtractError) throw new RuntimeInstallError(`${error.message} Nothing was installed.`);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOSPC") throw new RuntimeInstallError(`The disk is full: the engine could not be unpacked into ${store.root}; free some space and try again.`);
      throw new RuntimeInstallError(`The engine could not be installed (${error instanceof Error ? error.message : String(error)}).`);
    }
  }
}

/** A GPU pack that did not pass its check (the caller falls back to the default pack). */
class GpuCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GpuCheckError";
  }
}

function mb(bytes: number): number {
  return Math.ceil(bytes / 1024 ** 2);
}
