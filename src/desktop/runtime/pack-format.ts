/**
 * What a runtime pack is, shared by the pack builder (src/node/runtime-pack) and the plugin's installer: the
 * platforms, the prebuilt llama.cpp package each platform loads, file and folder names, and the manifest
 * (runtime-packs.json) that main.js embeds. Pure data: no Node built-ins, so the browser harness can load it too.
 */

/** The platforms packs are built for (Obsidian's desktop targets). */
export const PLATFORM_IDS = ["mac-arm64", "mac-x64", "win-x64", "linux-x64", "linux-arm64"] as const;
export type PlatformId = (typeof PLATFORM_IDS)[number];

/** GPU variants besides the default pack. */
export const GPU_KINDS = ["vulkan", "cuda"] as const;
export type GpuKind = (typeof GPU_KINDS)[number];

export interface PlatformSpec {
  /** npm's `--os`. */
  os: "darwin" | "win32" | "linux";
  /** npm's `--cpu`. */
  cpu: "arm64" | "x64";
  /** npm's `--libc` (Linux only). */
  libc?: "glibc";
  /**
   * The prebuilt binary packages node-llama-cpp imports on this platform (its compileLLamaCpp.js), by variant:
   * "default" is the pack every user can run; on Apple silicon that is Metal, elsewhere the CPU build.
   */
  binaries: { default: string[] } & Partial<Record<GpuKind, string[]>>;
  /** What node-llama-cpp reports as `llama.gpu` when the default pack's binary loads. */
  defaultGpu: false | "metal";
}

export const PLATFORMS: Record<PlatformId, PlatformSpec> = {
  "mac-arm64": { os: "darwin", cpu: "arm64", binaries: { default: ["@node-llama-cpp/mac-arm64-metal"] }, defaultGpu: "metal" },
  "mac-x64": { os: "darwin", cpu: "x64", binaries: { default: ["@node-llama-cpp/mac-x64"] }, defaultGpu: false },
  "win-x64": {
    os: "win32",
    cpu: "x64",
    binaries: { default: ["@node-llama-cpp/win-x64"], vulkan: ["@node-llama-cpp/win-x64-vulkan"], cuda: ["@node-llama-cpp/win-x64-cuda"] },
    defaultGpu: false,
  },
  "linux-x64": {
    os: "linux",
    cpu: "x64",
    libc: "glibc",
    binaries: { default: ["@node-llama-cpp/linux-x64"], vulkan: ["@node-llama-cpp/linux-x64-vulkan"], cuda: ["@node-llama-cpp/linux-x64-cuda"] },
    defaultGpu: false,
  },
  "linux-arm64": { os: "linux", cpu: "arm64", libc: "glibc", binaries: { default: ["@node-llama-cpp/linux-arm64"] }, defaultGpu: false },
};

/** The packages at the top of every pack: what the engine host imports. */
export const RUNTIME_ROOTS = ["node-llama-cpp", "vectra", "protobufjs"] as const;

/** One built pack, as runtime-packs.json lists it. */
export interface PackEntry {
  platform: PlatformId;
  /** Absent for the default pack. */
  gpu?: GpuKind;
  /** File name in the release. */
  file: string;
  bytes: number;
  /** Hex sha256 of the file. */
  sha256: string;
  /** Total size of its files once unpacked (the extraction's exact cap, and the disk space it needs). */
  unpackedBytes: number;
}

/** runtime-packs.json: the runtime this plugin build needs, and every pack of it. */
export interface PacksManifest {
  /** The runtime's version: node-llama-cpp's version and a hash of the locked packages and the pack format. */
  version: string;
  /** Release location the packs are downloaded from, as `<base>/<plugin version>/<file>`. */
  releaseBase: string;
  packs: PackEntry[];
}

export function isPlatformId(value: string): value is PlatformId {
  return (PLATFORM_IDS as readonly string[]).includes(value);
}

export function isGpuKind(value: string): value is GpuKind {
  return (GPU_KINDS as readonly string[]).includes(value);
}

/** The platform of a Node process (`process.platform`, `process.arch`), or null where no pack exists. */
export function platformOf(platform: string, arch: string): PlatformId | null {
  const os = platform === "darwin" ? "mac" : platform === "win32" ? "win" : platform === "linux" ? "linux" : null;
  const id = os ? `${os}-${arch}` : "";
  return isPlatformId(id) ? id : null;
}

/** `<version>-<platform>[-gpu]`: the installed folder's name, and the middle of the pack's file name. */
export function packId(version: string, platform: PlatformId, gpu?: GpuKind): string {
  return `${version}-${platform}${gpu ? `-${gpu}` : ""}`;
}

export function packFileName(version: string, platform: PlatformId, gpu?: GpuKind): string {
  return `vault-agent-runtime-${packId(version, platform, gpu)}.tar.gz`;
}

/** Reads a folder name back; null for anything that is not an installed runtime's folder. */
export function parsePackId(name: string): { version: string; platform: PlatformId; gpu?: GpuKind } | null {
  for (const platform of PLATFORM_IDS) {
    for (const gpu of [undefined, ...GPU_KINDS]) {
      const suffix = `-${platform}${gpu ? `-${gpu}` : ""}`;
      if (name.endsWith(suffix) && name.length > suffix.length) {
        const version = name.slice(0, -suffix.length);
        if (/^[0-9A-Za-z.]+(-[0-9a-f]+)?$/.test(version)) return { version, platform, gpu };
      }
    }
  }
  return null;
}

/** The pack entry for a platform and variant, if the manifest has one. */
export function findPack(manifest: PacksManifest, platform: PlatformId, gpu?: GpuKind): PackEntry | undefined {
  return manifest.packs.find((p) => p.platform === platform && (p.gpu ?? undefined) === gpu);
}

/** Where the plugin downloads a pack from: the project's release for this plugin version, or a mirror folder. */
export function packUrl(manifest: PacksManifest, pluginVersion: string, pack: PackEntry, mirror = ""): string {
  const base = mirror.trim() ? mirror.trim().replace(/\/+$/, "") : `${manifest.releaseBase.replace(/\/+$/, "")}/${encodeURIComponent(pluginVersion)}`;
  return `${base}/${encodeURIComponent(pack.file)}`;
}

/** Checks a parsed runtime-packs.json; throws a sentence naming the first problem. */
export function checkManifest(value: unknown): PacksManifest {
  const m = value as Partial<PacksManifest> | null;
  if (!m || typeof m.version !== "string" || typeof m.releaseBase !== "string" || !Array.isArray(m.packs)) {
    throw new Error("runtime-packs.json needs a version, a releaseBase and a list of packs.");
  }
  for (const p of m.packs) {
    if (!isPlatformId(String(p?.platform)) || (p.gpu !== undefined && !isGpuKind(String(p.gpu)))) throw new Error(`runtime-packs.json lists an unknown platform: ${JSON.stringify(p)}.`);
    if (typeof p.file !== "string" || !Number.isInteger(p.bytes) || !Number.isInteger(p.unpackedBytes) || !/^[0-9a-f]{64}$/.test(String(p.sha256))) {
      throw new Error(`runtime-packs.json has a pack without a file name, size or sha256: ${JSON.stringify(p)}.`);
    }
  }
  return m as PacksManifest;
}
