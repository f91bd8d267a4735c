/**
 * `bench install`: the engine install as a user gets it, with the network replaced by 127.0.0.1. Builds this
 * machine's pack from package-lock.json (npm's cache makes it offline after the first run), serves it over HTTP,
 * installs it with the plugin's installer into a temporary plugin folder (download, sha256, extraction, smoke
 * test, switch), then starts the host from the installed folder the plugin's way and measures the time from
 * "install finished" to the first generated token on the test model.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { EngineClient } from "../../engine/client/engine-client";
import { ensureHostScript } from "../../desktop/engine-host/host-script";
import { obsidianHostLauncher } from "../../desktop/engine-host/obsidian-launcher";
import { platformOf, packId, type PacksManifest } from "../../desktop/runtime/pack-format";
import { RuntimeInstaller, type InstallProgress } from "../../desktop/runtime/runtime-installer";
import { RuntimeStore } from "../../desktop/runtime/runtime-store";
import { buildPack } from "../runtime-pack/build-pack";
import type { Lockfile } from "../runtime-pack/lockfile-plan";
import { cachedTestModel } from "../test-model/model-cache";

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

async function hostBuild(): Promise<{ source: string; hash: string }> {
  const config = (await import(pathToFileURL(join(REPO_ROOT, "esbuild.config.mjs")).href)) as { buildHost(): Promise<string> };
  const cwd = process.cwd();
  process.chdir(REPO_ROOT);
  try {
    const source = await config.buildHost();
    return { source, hash: createHash("sha256").update(source).digest("hex").slice(0, 16) };
  } finally {
    process.chdir(cwd);
  }
}

/** This benchmark's line in `bench --help`. */
export const usage =
  "install [--json]   the engine install as a user gets it (over 127.0.0.1): download, checks, extraction, first token";

export async function run(): Promise<Record<string, unknown>> {
  const platform = platformOf(process.platform, process.arch);
  if (!platform) throw new Error(`There is no engine pack for ${process.platform} ${process.arch}.`);
  const work = mkdtempSync(join(tmpdir(), "bench-install-"));
  const server = createServer();
  try {
    const host = await hostBuild();
    const lockfile = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as Lockfile;
    let t = performance.now();
    const built = await buildPack({ lockfile, platform, outDir: join(work, "packs") });
    const buildMs = performance.now() - t;
    const body = readFileSync(built.path);
    server.on("request", (req, res) => {
      if (req.url !== `/releases/0.0.0/${built.file}`) {
        res.writeHead(404);
        return res.end();
      }
      res.writeHead(200, { "Content-Length": body.length });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const version = built.file.slice("vault-agent-runtime-".length, -`-${platform}.tar.gz`.length);
    const manifest: PacksManifest = { version, releaseBase: `${base}/releases`, packs: [{ platform, file: built.file, bytes: built.bytes, sha256: built.sha256, unpackedBytes: built.unpackedBytes }] };
    const pluginDir = join(work, "plugin");
    const installer = new RuntimeInstaller({
      store: new RuntimeStore(pluginDir, platform),
      manifest,
      pluginVersion: "0.0.0",
      mirror: () => "",
      host,
      launcher: (folder, script) => obsidianHostLauncher(folder, script),
    });
    const stageStart = new Map<InstallProgress["stage"], number>();
    t = performance.now();
    const outcome = await installer.install({ onProgress: (p) => (stageStart.has(p.stage) ? undefined : stageStart.set(p.stage, performance.now())) });
    const installed = performance.now();
    const stageMs: Record<string, number> = {};
    const stages = [...stageStart.entries()];
    stages.forEach(([stage, start], i) => (stageMs[stage] = Math.round((stages[i + 1]?.[1] ?? installed) - start)));

    const folder = join(pluginDir, "runtime", packId(version, platform));
    const script = await ensureHostScript(folder, host.source, host.hash);
    const client = new EngineClient(obsidianHostLauncher(folder, script.path), { model: { path: cachedTestModel({}), threads: 1, contextSize: 512 } });
    let firstToken = 0;
    try {
      await client.generate({
        messages: [{ role: "user", content: "hello" }],
        maxTokens: 4,
        temperature: 0,
        onText: () => {
          if (!firstToken) firstToken = performance.now();
        },
      });
    } finally {
      await client.shutdown();
    }
    return {
      platform,
      packFile: built.file,
      packBytes: built.bytes,
      unpackedBytes: built.unpackedBytes,
      files: built.files,
      buildMs: Math.round(buildMs),
      installMs: Math.round(installed - t),
      stageMs,
      smokeTestMs: outcome.check.ms,
      installToFirstTokenMs: Math.round(firstToken - installed),
    };
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(work, { recursive: true, force: true });
  }
}
