/**
 * The engine runtime as the plugin sees it: which folder the host runs from (an installed pack of the version this
 * build needs, or a developer's `node_modules` from `npm run install-plugin`), whether an install or an update is
 * needed, and the installer the settings and the chat pane's first-run card call after the user's click.
 */
import type { HostLauncher } from "../../engine/client/launcher";
import type { GpuKind, PacksManifest, PlatformId } from "../../desktop/runtime/pack-format";
import { platformOf } from "../../desktop/runtime/pack-format";
import { RuntimeInstaller, type InstallOutcome, type InstallProgress, type PackOffer } from "../../desktop/runtime/runtime-installer";
import { RuntimeStore, type InstalledRuntime } from "../../desktop/runtime/runtime-store";
import { nodeModule } from "../../engine/node-builtins";

const fs = nodeModule("fs");
const path = nodeModule("path");

export interface RuntimeStatus {
  /** This computer's platform; null where no pack exists (the engine cannot be installed here). */
  platform: PlatformId | null;
  /** The runtime version this plugin build needs. */
  needed: string;
  /** The installed runtime in use on this platform (of any version). */
  current: InstalledRuntime | null;
  /** A developer install (node_modules in the plugin folder) is present. */
  developer: boolean;
  /** The engine can start: the needed version is installed, or a developer install is present. */
  ready: boolean;
  /** An older runtime is installed; the needed one waits for the user's click. */
  updateNeeded: boolean;
  /** The default pack for this platform, if any. */
  offer: PackOffer | null;
  /** GPU packs for this platform. */
  gpuOffers: PackOffer[];
  /** Where models and runtimes are kept. */
  dataFolder: string;
}

/** What the settings tab and chat pane call. Implemented over the disk here, and by the browser harness. */
export interface RuntimeService {
  status(): Promise<RuntimeStatus>;
  install(options: { gpu?: GpuKind; signal?: AbortSignal; onProgress?: (p: InstallProgress) => void }): Promise<InstallOutcome>;
  installFromFile(file: string, onProgress?: (p: InstallProgress) => void): Promise<InstallOutcome>;
  /** Frees the space; returns the bytes freed. */
  remove(): Promise<number>;
}

export interface DiskRuntimeOptions {
  /** The plugin's folder (developer installs live in its node_modules). */
  pluginDir: string;
  /** The data folder in use (plugin folder or per-user folder). */
  dataFolder: () => string;
  manifest: PacksManifest;
  pluginVersion: string;
  mirror: () => string;
  host: { source: string; hash: string };
  launcher: (folder: string, hostScript: string) => HostLauncher;
  /** Injectable for tests. */
  platform?: PlatformId | null;
}

export class DiskRuntimeService implements RuntimeService {
  constructor(private readonly options: DiskRuntimeOptions) {}

  private platform(): PlatformId | null {
    return this.options.platform !== undefined ? this.options.platform : platformOf(process.platform, process.arch);
  }

  private installer(): RuntimeInstaller | null {
    const platform = this.platform();
    if (!platform) return null;
    return new RuntimeInstaller({
      store: new RuntimeStore(this.options.dataFolder(), platform),
      manifest: this.options.manifest,
      pluginVersion: this.options.pluginVersion,
      mirror: this.options.mirror,
      host: this.options.host,
      launcher: this.options.launcher,
    });
  }

  /** The folder the host runs from, or null when no usable runtime is installed. */
  async hostFolder(): Promise<string | null> {
    const status = await this.status();
    if (status.current && status.current.version === status.needed) return status.current.folder;
    return status.developer ? this.options.pluginDir : null;
  }

  async status(): Promise<RuntimeStatus> {
    const platform = this.platform();
    const installer = this.installer();
    const current = installer ? await installer.store.current() : null;
    const developer = fs.existsSync(path.join(this.options.pluginDir, "node_modules", "node-llama-cpp", "package.json"));
    const needed = this.options.manifest.version;
    const matches = current !== null && current.version === needed;
    return {
      platform,
      needed,
      current,
      developer,
      ready: matches || developer,
      updateNeeded: current !== null && !matches && !developer,
      offer: installer?.offer() ?? null,
      gpuOffers: installer ? installer.gpuVariants().map((g) => installer.offer(g)!).filter(Boolean) : [],
      dataFolder: this.options.dataFolder(),
    };
  }

  install(options: { gpu?: GpuKind; signal?: AbortSignal; onProgress?: (p: InstallProgress) => void }): Promise<InstallOutcome> {
    return this.require().install(options);
  }

  installFromFile(file: string, onProgress?: (p: InstallProgress) => void): Promise<InstallOutcome> {
    return this.require().installFromFile(file, onProgress);
  }

  remove(): Promise<number> {
    return this.require().remove();
  }

  private require(): RuntimeInstaller {
    const installer = this.installer();
    if (!installer) throw new Error(`There is no engine pack for ${process.platform} ${process.arch}; use a server engine instead.`);
    return installer;
  }
}
