/**
 * Which packages go into a platform's pack, decided from package-lock.json alone (no download): the runtime roots
 * and everything they resolve to the way Node resolves it (nearest node_modules first), with the exact versions,
 * tarball addresses and integrity hashes the lockfile pins. Prebuilt llama.cpp packages are chosen per platform and
 * variant; vectra's dependencies that the engine host never loads are left out.
 */
import { createHash } from "node:crypto";
import { PLATFORMS, RUNTIME_ROOTS, type GpuKind, type PlatformId } from "../../desktop/runtime/pack-format";

/** Bump when the builder changes what goes into a pack or how it is written: it changes the runtime version. */
export const PACK_FORMAT = 1;

/**
 * vectra's dependencies the host does not load: it requires LocalIndex and the codecs directly
 * (src/host/vector/vectra-loader.ts), which use uuid and wink-*; OpenAI, gRPC, HTML and tokenizer code are for
 * vectra's own CLI and embedding clients. The pack's smoke test opens, writes and queries a protobuf index to prove it.
 */
export const DROPPED_DEPENDENCIES: Record<string, string[]> = {
  vectra: ["@grpc/grpc-js", "@grpc/proto-loader", "buffer", "cheerio", "dotenv", "gpt-tokenizer", "json-colorizer", "openai", "turndown", "yargs"],
};

/** The prebuilt binary packages' scope: only the planned ones of them go in. */
const BINARY_SCOPE = "@node-llama-cpp/";

export interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  license?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optional?: boolean;
  dev?: boolean;
  bin?: Record<string, string> | string;
  engines?: Record<string, string>;
  hasInstallScript?: boolean;
  link?: boolean;
}

export interface Lockfile {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
}

export interface PlannedPackage {
  /** Its place in the tree, e.g. `node_modules/vectra/node_modules/uuid`. */
  path: string;
  name: string;
  version: string;
  /** The lockfile's tarball address when it records one (npm then fetches by name and version otherwise). */
  resolved?: string;
  integrity: string;
}

export interface PackPlan {
  platform: PlatformId;
  gpu?: GpuKind;
  /** The runtime version this plan belongs to (the same for every platform of one lockfile). */
  runtimeVersion: string;
  /** Sorted by path. */
  packages: PlannedPackage[];
  /** The prebuilt llama.cpp packages in the pack. */
  binaries: string[];
  /** Packages reachable in the lockfile that the pack leaves out, with why. */
  skipped: { path: string; reason: "other platform" | "unused by the host" }[];
}

export class PlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PlanError";
  }
}

/** The package name of a lockfile path (`node_modules/a/node_modules/@s/b` → `@s/b`). */
export function nameOf(path: string): string {
  const i = path.lastIndexOf("node_modules/");
  return path.slice(i + "node_modules/".length);
}

/** Node's lookup: the nearest `node_modules/<name>` from the requiring package's folder up to the root. */
function resolveFrom(lock: Lockfile, from: string, name: string): string | null {
  let dir = from;
  for (;;) {
    const candidate = dir ? `${dir}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (!dir) return null;
    const i = dir.lastIndexOf("/node_modules/");
    dir = i >= 0 ? dir.slice(0, i) : "";
  }
}

function fitsPlatform(entry: LockEntry, platform: PlatformId): boolean {
  const spec = PLATFORMS[platform];
  // npm's rule: a value fits when the list names it (or names only exclusions) and does not exclude it.
  const allows = (list: string[] | undefined, value: string | undefined) => {
    if (!list || value === undefined) return true;
    const positive = list.filter((v) => !v.startsWith("!"));
    return (positive.length === 0 || positive.includes(value)) && !list.includes(`!${value}`);
  };
  return allows(entry.os, spec.os) && allows(entry.cpu, spec.cpu) && (!entry.libc || !spec.libc || allows(entry.libc, spec.libc));
}

/** The runtime version: node-llama-cpp's version and a short hash of every locked package the runtime can reach. */
export function runtimeVersion(lock: Lockfile): string {
  const reachable = new Set<string>();
  const queue: string[] = [];
  for (const root of RUNTIME_ROOTS) {
    const path = resolveFrom(lock, "", root);
    if (!path) throw new PlanError(`package-lock.json has no ${root}; run npm install first.`);
    queue.push(path);
  }
  while (queue.length) {
    const path = queue.pop()!;
    if (reachable.has(path)) continue;
    reachable.add(path);
    const entry = lock.packages[path];
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      const found = resolveFrom(lock, path, dep);
      if (found) queue.push(found);
    }
  }
  const hash = createHash("sha256").update(`pack-format ${PACK_FORMAT}\n`);
  for (const path of [...reachable].sort()) hash.update(`${path} ${lock.packages[path].version} ${lock.packages[path].integrity ?? ""}\n`);
  const nlc = lock.packages[resolveFrom(lock, "", "node-llama-cpp")!].version;
  return `${nlc}-${hash.digest("hex").slice(0, 8)}`;
}

/** The packages one pack holds. Throws PlanError when the lockfile lacks something the pack needs. */
export function planPack(lock: Lockfile, platform: PlatformId, gpu?: GpuKind): PackPlan {
  if (lock.lockfileVersion < 2) throw new PlanError("package-lock.json must be lockfile version 2 or later (npm 7+).");
  const spec = PLATFORMS[platform];
  const binaries = gpu ? spec.binaries[gpu] : spec.binaries.default;
  if (!binaries) throw new PlanError(`There is no ${gpu} pack for ${platform}; choose one of: ${Object.keys(spec.binaries).filter((k) => k !== "default").join(", ") || "none"}.`);

  const included = new Map<string, PlannedPackage>();
  const skipped = new Map<string, PackPlan["skipped"][number]["reason"]>();
  const visit = (path: string) => {
    if (included.has(path)) return;
    const entry = lock.packages[path];
    const name = nameOf(path);
    if (!entry.version || !entry.integrity) {
      throw new PlanError(`package-lock.json has no version or integrity for ${path}; run npm install to complete it.`);
    }
    included.set(path, { path, name, version: entry.version, resolved: entry.resolved, integrity: entry.integrity });
    const dropped = new Set(DROPPED_DEPENDENCIES[name] ?? []);
    const required = Object.keys(entry.dependencies ?? {});
    const optional = Object.keys(entry.optionalDependencies ?? {});
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((p) => !entry.peerDependenciesMeta?.[p]?.optional);
    for (const dep of [...new Set([...required, ...optional, ...peers])].sort()) {
      const found = resolveFrom(lock, path, dep);
      const isOptional = optional.includes(dep) && !required.includes(dep);
      if (dropped.has(dep)) {
        if (found) skipped.set(found, "unused by the host");
        continue;
      }
      if (dep.startsWith(BINARY_SCOPE)) {
        if (binaries.includes(dep)) {
          if (!found) throw new PlanError(`package-lock.json has no ${dep}; npm install must record every platform's optional packages.`);
          visit(found);
        } else if (found) skipped.set(found, "other platform");
        continue;
      }
      if (!found) {
        if (isOptional || peers.includes(dep)) continue;
        throw new PlanError(`package-lock.json does not resolve ${dep}, which ${path} needs; run npm install.`);
      }
      if (isOptional && !fitsPlatform(lock.packages[found], platform)) {
        skipped.set(found, "other platform");
        continue;
      }
      visit(found);
    }
  };
  for (const root of RUNTIME_ROOTS) {
    const path = resolveFrom(lock, "", root);
    if (!path) throw new PlanError(`package-lock.json has no ${root}; run npm install first.`);
    visit(path);
  }
  for (const binary of binaries) {
    if (![...included.values()].some((p) => p.name === binary)) throw new PlanError(`node-llama-cpp does not list ${binary}; the pack would have no llama.cpp binary.`);
  }
  return {
    platform,
    gpu,
    runtimeVersion: runtimeVersion(lock),
    packages: [...included.values()].sort((a, b) => (a.path < b.path ? -1 : 1)),
    binaries: [...binaries],
    skipped: [...skipped]
      .filter(([path]) => !included.has(path))
      .map(([path, reason]) => ({ path, reason }))
      .sort((a, b) => (a.path < b.path ? -1 : 1)),
  };
}

/**
 * A package-lock.json for a project holding only this plan's packages, so `npm ci` installs exactly them. Dropped
 * dependencies are removed from their dependents' entries, or npm would add them back.
 */
export function planLockfile(lock: Lockfile, plan: PackPlan, rootName: string): { packageJson: object; lockfile: object } {
  const rootDependencies = Object.fromEntries(RUNTIME_ROOTS.map((r) => [r, lock.packages[`node_modules/${r}`].version!]));
  const packages: Record<string, LockEntry & { name?: string }> = {
    "": { name: rootName, version: "0.0.0", dependencies: rootDependencies },
  };
  const kept = new Set(plan.packages.map((p) => p.path));
  for (const p of plan.packages) {
    const entry: LockEntry = { ...lock.packages[p.path] };
    delete entry.dev;
    delete entry.optional;
    const prune = (deps: Record<string, string> | undefined) => {
      if (!deps) return undefined;
      const out = Object.fromEntries(
        Object.entries(deps).filter(([dep]) => {
          const found = resolveFrom(lock, p.path, dep);
          return found !== null && kept.has(found);
        }),
      );
      return Object.keys(out).length ? out : undefined;
    };
    entry.dependencies = prune(entry.dependencies);
    entry.optionalDependencies = prune(entry.optionalDependencies);
    if (!entry.dependencies) delete entry.dependencies;
    if (!entry.optionalDependencies) delete entry.optionalDependencies;
    delete entry.peerDependencies;
    delete entry.peerDependenciesMeta;
    packages[p.path] = entry;
  }
  return {
    packageJson: { name: rootName, version: "0.0.0", private: true, dependencies: rootDependencies },
    lockfile: { name: rootName, version: "0.0.0", lockfileVersion: 3, requires: true, packages },
  };
}
