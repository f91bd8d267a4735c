/**
 * Installed runtimes on disk: `<base>/runtime/<version>-<platform>[-gpu]/` folders and one pointer per platform
 * (`current-<platform>.json`) naming the folder in use. The pointer is replaced by a rename, so the switch to a new
 * runtime is atomic; folder names and pointers carry the platform, so a vault synced between a Mac and a Windows
 * machine never loads the other one's binary.
 */
import { packId, parsePackId, type GpuKind, type PlatformId } from "./pack-format";
import { nodeModule } from "../../engine/node-builtins";

const fs = nodeModule("fs");
const path = nodeModule("path");

export interface InstalledRuntime {
  /** Folder name: `<version>-<platform>[-gpu]`. */
  id: string;
  version: string;
  platform: PlatformId;
  gpu?: GpuKind;
  /** Absolute folder path. */
  folder: string;
}

/** The pointer file's contents. */
interface Pointer {
  folder: string;
}

export class RuntimeStore {
  constructor(
    /** The data folder (the plugin's folder, or the per-user folder). */
    private readonly base: string,
    readonly platform: PlatformId,
  ) {}

  /** `<base>/runtime`. */
  get root(): string {
    return path.join(this.base, "runtime");
  }

  /** Where downloads are kept until verified. */
  get downloads(): string {
    return path.join(this.root, "downloads");
  }

  folderFor(version: string, gpu?: GpuKind): string {
    return path.join(this.root, packId(version, this.platform, gpu));
  }

  private pointerFile(): string {
    return path.join(this.root, `current-${this.platform}.json`);
  }

  /** The runtime in use on this platform, or null (none installed, or its folder is gone). */
  async current(): Promise<InstalledRuntime | null> {
    let pointer: Pointer;
    try {
      pointer = JSON.parse(await fs.promises.readFile(this.pointerFile(), "utf8")) as Pointer;
    } catch {
      return null;
    }
    const parsed = typeof pointer.folder === "string" && !pointer.folder.includes("/") && !pointer.folder.includes("\\") ? parsePackId(pointer.folder) : null;
    if (!parsed || parsed.platform !== this.platform) return null;
    const folder = path.join(this.root, pointer.folder);
    if (!fs.existsSync(path.join(folder, "runtime.json"))) return null;
    return { id: pointer.folder, ...parsed, folder };
  }

  /** Installed runtime folders of this platform (other platforms' folders are ignored). */
  async list(): Promise<InstalledRuntime[]> {
    const names = await fs.promises.readdir(this.root).catch(() => [] as string[]);
    const out: InstalledRuntime[] = [];
    for (const name of names.sort()) {
      const parsed = parsePackId(name);
      if (parsed && parsed.platform === this.platform) out.push({ id: name, ...parsed, folder: path.join(this.root, name) });
    }
    return out;
  }

  /** Points this platform at an installed folder: write a temp file, then rename it over the pointer. */
  async switchTo(id: string): Promise<void> {
    const parsed = parsePackId(id);
    if (!parsed || parsed.platform !== this.platform) throw new Error(`${id} is not a runtime for ${this.platform}.`);
    await fs.promises.mkdir(this.root, { recursive: true });
    const temp = `${this.pointerFile()}.${process.pid}.tmp`;
    await fs.promises.writeFile(temp, JSON.stringify({ folder: id } satisfies Pointer) + "\n", "utf8");
    await fs.promises.rename(temp, this.pointerFile());
  }

  /** Removes this platform's runtime folders except `keep`, and leftovers of interrupted installs. */
  async prune(keep: string | null): Promise<void> {
    for (const r of await this.list()) if (r.id !== keep) await fs.promises.rm(r.folder, { recursive: true, force: true });
    const names = await fs.promises.readdir(this.root).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith(`.staging-`) || name.startsWith(`.old-`)) {
        if (name.includes(`-${this.platform}`)) await fs.promises.rm(path.join(this.root, name), { recursive: true, force: true });
      }
    }
  }

  /** "Remove engine": this platform's runtimes, pointer and downloads. Returns the bytes freed. */
  async removeAll(): Promise<number> {
    let freed = 0;
    for (const r of await this.list()) freed += await folderBytes(r.folder);
    await fs.promises.rm(this.pointerFile(), { force: true });
    await this.prune(null);
    const downloads = await fs.promises.readdir(this.downloads).catch(() => [] as string[]);
    for (const name of downloads) {
      if (name.includes(`-${this.platform}`)) {
        const file = path.join(this.downloads, name);
        freed += (await fs.promises.stat(file).catch(() => ({ size: 0 }))).size;
        await fs.promises.rm(file, { force: true });
      }
    }
    return freed;
  }
}

/** Bytes of all files under a folder. */
export async function folderBytes(folder: string): Promise<number> {
  let total = 0;
  const entries = await fs.promises.readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const full = path.join(folder, e.name);
    if (e.isDirectory()) total += await folderBytes(full);
    else if (e.isFile()) total += (await fs.promises.stat(full)).size;
  }
  return total;
}
