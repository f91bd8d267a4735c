/**
 * The `runtime.check` op: proves an installed runtime works before the plugin switches to it. node-llama-cpp loads
 * its prebuilt binary with `build: "never"` (never compiling, never downloading), with the GPU backend the pack
 * was built for; vectra writes, reads and queries an index in each codec in a scratch folder, which also proves the
 * dependencies left out of the pack are not needed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { VectraStore } from "./vector/vectra-store";
import { loadLlamaRuntime } from "./llama-runtime";
import type { RuntimeCheckResult } from "../engine/client/host-protocol";

export interface RuntimeCheckParams {
  /** The backend the pack carries: false = CPU, or a GPU kind; "auto" lets node-llama-cpp choose. */
  gpu?: false | "auto" | "metal" | "vulkan" | "cuda";
}

/** Where an ESM-only package resolves from this script (its exports hide package.json), and its version. */
function locate(name: string): { version: string; pkgPath: string } {
  // import.meta.resolve is synchronous from Node 20.6 and 18.19; older Electrons get Node's folder walk.
  const resolveFn = (import.meta as { resolve?: (specifier: string) => string }).resolve;
  let dir = resolveFn ? dirname(fileURLToPath(resolveFn(name))) : nearestPackageFolder(name);
  for (;;) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === name) return { version: pkg.version ?? "unknown", pkgPath: file };
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`${name} resolved to a folder without its package.json.`);
    dir = up;
  }
}

/** The first `node_modules/<name>` from this script's folder upwards (Node's lookup order). */
function nearestPackageFolder(name: string): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} is not installed next to the engine host.`);
  }
}

export async function runtimeCheck(raw: unknown): Promise<RuntimeCheckResult> {
  const started = Date.now();
  const gpu = (raw as RuntimeCheckParams | null)?.gpu ?? "auto";
  // Loaded lazily like everywhere in the host, so a host without the runtime still starts.
  const { getLlama, LlamaLogLevel } = await loadLlamaRuntime();
  const { version, pkgPath } = locate("node-llama-cpp");
  const llama = await getLlama({ gpu, build: "never", progressLogs: false, logLevel: LlamaLogLevel.error });
  const loaded = llama.gpu;
  await llama.dispose();

  const folder = await mkdtemp(join(tmpdir(), "vault-agent-check-"));
  let hits = Infinity;
  try {
    // The host's own codec, and vectra's protobuf codec (protobufjs) that reads indexes of earlier versions.
    for (const codec of ["compact", "protobuf"] as const) {
      const dir = join(folder, codec);
      const store = new VectraStore(dir, { codec });
      await store.open();
      await store.upsert([{ id: "check", vector: [1, 0, 0], metadata: { path: "check.md", heading: "", hash: "0", text: "check" } }]);
      await store.flush();
      await store.close();
      const reopened = new VectraStore(dir, { codec });
      await reopened.open();
      hits = Math.min(hits, (await reopened.query([1, 0, 0], 1)).length);
      await reopened.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return { gpu: loaded, nodeLlamaCpp: version, loadedFrom: pkgPath, vectorHits: hits, ms: Date.now() - started };
}
