/**
 * `npm run pack-runtime -- --platform P [--gpu vulkan|cuda] [--out DIR] [--update-manifest]`, or `--all` for every
 * pack the release ships, or `--plan` to print what a pack would hold (from package-lock.json, no download).
 * Prints one JSON object per pack; with --update-manifest also writes its entry into runtime-packs.json; with --check
 * fails unless every built pack is byte for byte the one runtime-packs.json lists (the release workflow's guard).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs, reportFailure, UsageError } from "../cli-types";
import { GPU_KINDS, PLATFORMS, PLATFORM_IDS, isGpuKind, isPlatformId, type GpuKind, type PackEntry, type PacksManifest, type PlatformId } from "../../desktop/runtime/pack-format";
import { buildPack } from "./build-pack";
import { planPack, runtimeVersion, type Lockfile } from "./lockfile-plan";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const MANIFEST_FILE = join(REPO_ROOT, "runtime-packs.json");
const USAGE = "npm run pack-runtime -- (--platform mac-arm64|mac-x64|win-x64|linux-x64|linux-arm64 [--gpu vulkan|cuda] | --all) [--out DIR] [--update-manifest | --check] [--plan]";

/** Every pack a release ships: each platform's default pack and its GPU variants. */
export function releasePacks(): { platform: PlatformId; gpu?: GpuKind }[] {
  const out: { platform: PlatformId; gpu?: GpuKind }[] = [];
  for (const platform of PLATFORM_IDS) {
    out.push({ platform });
    for (const gpu of GPU_KINDS) if (PLATFORMS[platform].binaries[gpu]) out.push({ platform, gpu });
  }
  return out;
}

/** Puts a built pack's entry into the manifest (replacing the same platform and variant; other runtime versions go). */
export function withEntry(manifest: PacksManifest, version: string, entry: PackEntry): PacksManifest {
  const packs = manifest.version === version ? manifest.packs.filter((p) => !(p.platform === entry.platform && p.gpu === entry.gpu)) : [];
  packs.push(entry);
  const order = releasePacks().map((p) => `${p.platform}/${p.gpu ?? ""}`);
  packs.sort((a, b) => order.indexOf(`${a.platform}/${a.gpu ?? ""}`) - order.indexOf(`${b.platform}/${b.gpu ?? ""}`));
  return { version, releaseBase: manifest.releaseBase, packs };
}

export async function main(argv: string[]): Promise<number> {
  try {
    const { options } = parseArgs(argv, { strings: ["platform", "gpu", "out"], booleans: ["all", "update-manifest", "plan", "check"] });
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as Lockfile;
    let targets: { platform: PlatformId; gpu?: GpuKind }[];
    if (options.all) targets = releasePacks();
    else {
      const platform = String(options.platform ?? "");
      if (!isPlatformId(platform)) throw new UsageError(`--platform must be one of ${PLATFORM_IDS.join(", ")}.`);
      const gpu = options.gpu === undefined ? undefined : String(options.gpu);
      if (gpu !== undefined && !isGpuKind(gpu)) throw new UsageError(`--gpu must be one of ${GPU_KINDS.join(", ")}.`);
      targets = [{ platform, gpu }];
    }
    const out = resolve(String(options.out ?? join(REPO_ROOT, "dist", "runtime-packs")));
    const version = runtimeVersion(lock);
    const committed = JSON.parse(readFileSync(MANIFEST_FILE, "utf8")) as PacksManifest;
    let mismatches = 0;
    for (const target of targets) {
      if (options.plan) {
        const plan = planPack(lock, target.platform, target.gpu);
        process.stdout.write(JSON.stringify({ ...plan, packages: plan.packages.map((p) => `${p.path}@${p.version}`) }) + "\n");
        continue;
      }
      process.stderr.write(`Building the ${target.platform}${target.gpu ? ` ${target.gpu}` : ""} pack…\n`);
      const built = await buildPack({ lockfile: lock, platform: target.platform, gpu: target.gpu, outDir: out });
      process.stdout.write(JSON.stringify({ ...built, version, mib: Number((built.bytes / 1024 ** 2).toFixed(2)) }) + "\n");
      if (options.check) {
        const listed = committed.packs.find((p) => p.platform === built.platform && p.gpu === built.gpu);
        if (committed.version !== version || !listed || listed.sha256 !== built.sha256 || listed.bytes !== built.bytes || listed.unpackedBytes !== built.unpackedBytes) {
          mismatches++;
          process.stderr.write(`${built.file} differs from runtime-packs.json (built sha256 ${built.sha256}, listed ${listed?.sha256 ?? "none"}); rebuild with --update-manifest and commit it.\n`);
        }
      }
      if (options["update-manifest"]) {
        const manifest = JSON.parse(readFileSync(MANIFEST_FILE, "utf8")) as PacksManifest;
        const entry: PackEntry = { platform: built.platform, ...(built.gpu ? { gpu: built.gpu } : {}), file: built.file, bytes: built.bytes, sha256: built.sha256, unpackedBytes: built.unpackedBytes };
        writeFileSync(MANIFEST_FILE, JSON.stringify(withEntry(manifest, version, entry), null, 2) + "\n");
      }
    }
    return mismatches > 0 ? 1 : 0;
  } catch (err) {
    return reportFailure(err, USAGE);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
