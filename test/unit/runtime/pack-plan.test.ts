/**
 * The pack plan of every platform, from the repository's package-lock.json and nothing else (no download): each
 * pack holds node-llama-cpp, vectra and protobufjs with their locked dependencies, exactly the prebuilt llama.cpp
 * package that platform loads, the platform's native helper packages, and none of vectra's unused dependencies.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { releasePacks } from "../../../src/node/runtime-pack/main";
import { DROPPED_DEPENDENCIES, planLockfile, planPack, runtimeVersion, type Lockfile } from "../../../src/node/runtime-pack/lockfile-plan";
import { checkManifest, packFileName, parsePackId, platformOf } from "../../../src/desktop/runtime/pack-format";

const repo = resolve(__dirname, "../../..");
const lock = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")) as Lockfile;

const EXPECTED_BINARY: Record<string, string> = {
  "mac-arm64": "@node-llama-cpp/mac-arm64-metal",
  "mac-x64": "@node-llama-cpp/mac-x64",
  "win-x64": "@node-llama-cpp/win-x64",
  "win-x64/vulkan": "@node-llama-cpp/win-x64-vulkan",
  "win-x64/cuda": "@node-llama-cpp/win-x64-cuda",
  "linux-x64": "@node-llama-cpp/linux-x64",
  "linux-x64/vulkan": "@node-llama-cpp/linux-x64-vulkan",
  "linux-x64/cuda": "@node-llama-cpp/linux-x64-cuda",
  "linux-arm64": "@node-llama-cpp/linux-arm64",
};
const REFLINK: Record<string, string> = {
  "mac-arm64": "@reflink/reflink-darwin-arm64",
  "mac-x64": "@reflink/reflink-darwin-x64",
  "win-x64": "@reflink/reflink-win32-x64-msvc",
  "linux-x64": "@reflink/reflink-linux-x64-gnu",
  "linux-arm64": "@reflink/reflink-linux-arm64-gnu",
};

describe("pack plans from package-lock.json", () => {
  for (const { platform, gpu } of releasePacks()) {
    const key = gpu ? `${platform}/${gpu}` : platform;
    it(`${key}: the runtime, its locked dependencies and only ${EXPECTED_BINARY[key]}`, () => {
      const plan = planPack(lock, platform, gpu);
      const names = plan.packages.map((p) => p.name);
      expect(names).toEqual(expect.arrayContaining(["node-llama-cpp", "vectra", "protobufjs", "uuid", "wink-nlp", "wink-bm25-text-search"]));
      expect(plan.binaries).toEqual([EXPECTED_BINARY[key]]);
      expect(names.filter((n) => n.startsWith("@node-llama-cpp/"))).toEqual([EXPECTED_BINARY[key]]);
      // Native helpers: the platform's own build of each, no other platform's.
      expect(names.filter((n) => n.startsWith("@reflink/reflink-"))).toEqual([REFLINK[platform]]);
      for (const dropped of DROPPED_DEPENDENCIES.vectra) expect(plan.packages.some((p) => p.path === `node_modules/vectra/node_modules/${dropped}` || (p.name === dropped && dropped !== "yargs"))).toBe(false);
      // Exact versions with integrity, at the lockfile's places.
      for (const p of plan.packages) {
        expect(p.version).toBe(lock.packages[p.path].version);
        expect(p.integrity).toMatch(/^sha512-/);
      }
      expect(plan.runtimeVersion).toBe(runtimeVersion(lock));
      expect(plan.skipped.some((s) => s.path === "node_modules/openai" && s.reason === "unused by the host")).toBe(true);
    });
  }

  it("the subset lockfile lists only planned packages and drops edges to left-out ones", () => {
    const plan = planPack(lock, "mac-arm64");
    const { lockfile } = planLockfile(lock, plan, "pack") as { lockfile: { packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }> } };
    expect(Object.keys(lockfile.packages).sort()).toEqual(["", ...plan.packages.map((p) => p.path)].sort());
    expect(Object.keys(lockfile.packages["node_modules/vectra"].dependencies ?? {})).not.toContain("openai");
    expect(Object.keys(lockfile.packages["node_modules/node-llama-cpp"].optionalDependencies ?? {})).toEqual(["@node-llama-cpp/mac-arm64-metal"]);
  });

  it("refuses a variant a platform has no binary for", () => {
    expect(() => planPack(lock, "mac-arm64", "cuda")).toThrow(/There is no cuda pack for mac-arm64/);
  });

  it("runtime-packs.json lists every release pack of the lockfile's runtime version", () => {
    const manifest = checkManifest(JSON.parse(readFileSync(join(repo, "runtime-packs.json"), "utf8")));
    expect(manifest.version, "runtime-packs.json is stale: run npm run pack-runtime -- --all --update-manifest and commit it").toBe(runtimeVersion(lock));
    expect(manifest.packs.map((p) => `${p.platform}/${p.gpu ?? ""}`)).toEqual(releasePacks().map((p) => `${p.platform}/${p.gpu ?? ""}`));
    for (const p of manifest.packs) expect(p.file).toBe(packFileName(manifest.version, p.platform, p.gpu));
    // The goal: a CPU pack of at most 20 MB.
    for (const p of manifest.packs.filter((p) => !p.gpu)) expect(p.bytes).toBeLessThanOrEqual(20 * 1024 ** 2);
  });

  it("folder names carry the platform, so another platform's runtime is never picked up", () => {
    expect(parsePackId("3.21.1-6ffa3883-win-x64-vulkan")).toEqual({ version: "3.21.1-6ffa3883", platform: "win-x64", gpu: "vulkan" });
    expect(parsePackId("3.21.1-6ffa3883-mac-arm64")).toEqual({ version: "3.21.1-6ffa3883", platform: "mac-arm64", gpu: undefined });
    expect(parsePackId("downloads")).toBeNull();
    expect(platformOf("darwin", "arm64")).toBe("mac-arm64");
    expect(platformOf("win32", "arm64")).toBeNull();
  });
});
