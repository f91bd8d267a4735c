/**
 * The engine install end to end with real parts; only the network location is local. The linux-x64 pack is built
 * from package-lock.json (npm's download cache under the project cache makes later runs offline), served from
 * 127.0.0.1, and installed by the plugin's installer into a temporary plugin folder; the host then starts from
 * that folder the plugin's way and generates under the envelope grammar on the test model. Damaged packs, broken
 * servers and a full disk each end in one sentence with the previous runtime untouched.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileEnvelopeGrammar } from "../../../src/core/grammar/envelope";
import { EngineClient } from "../../../src/engine/client/engine-client";
import { buildPack, type BuiltPack } from "../../../src/node/runtime-pack/build-pack";
import type { Lockfile } from "../../../src/node/runtime-pack/lockfile-plan";
import { ensureHostScript } from "../../../src/desktop/engine-host/host-script";
import { obsidianHostLauncher } from "../../../src/desktop/engine-host/obsidian-launcher";
import type { PacksManifest, PackEntry } from "../../../src/desktop/runtime/pack-format";
import { RuntimeInstaller, RuntimeInstallError, type InstallProgress } from "../../../src/desktop/runtime/runtime-installer";
import { RuntimeStore } from "../../../src/desktop/runtime/runtime-store";
import { testModelPath } from "../../helpers/test-model";
import { buildHostBundle } from "../../helpers/host-bundle";

const repo = resolve(__dirname, "../../..");
const PLUGIN_VERSION = "0.1.0";
let host: { source: string; hash: string };
let built: BuiltPack;
let pack: PackEntry;
let packBytes: Buffer;
let server: Server;
let base: string;
let work: string;
/** The Vulkan pack, once the fallback test built it. */
let vulkan: { entry: PackEntry; bytes: Buffer } | null = null;
/** Requests the server saw, with their Range headers. */
const seen: { url: string; range?: string }[] = [];

function send(res: ServerResponse, body: Buffer, range: string | undefined): void {
  const m = /^bytes=(\d+)-$/.exec(range ?? "");
  if (m && Number(m[1]) < body.length) {
    const start = Number(m[1]);
    res.writeHead(206, { "Content-Length": body.length - start, "Content-Range": `bytes ${start}-${body.length - 1}/${body.length}` });
    res.end(body.subarray(start));
    return;
  }
  res.writeHead(200, { "Content-Length": body.length });
  res.end(body);
}

beforeAll(async () => {
  const source = await buildHostBundle();
  host = { source, hash: createHash("sha256").update(source).digest("hex").slice(0, 16) };
  work = mkdtempSync(join(tmpdir(), "runtime-install-"));
  const lockfile = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")) as Lockfile;
  built = await buildPack({ lockfile, platform: "linux-x64", outDir: join(work, "packs") });
  pack = { platform: built.platform, file: built.file, bytes: built.bytes, sha256: built.sha256, unpackedBytes: built.unpackedBytes };
  packBytes = readFileSync(built.path);
  const corrupt = Buffer.from(packBytes);
  corrupt[Math.floor(corrupt.length / 2)] ^= 0x01;
  let cutOnce = true;

  server = createServer((req, res) => {
    const url = req.url ?? "";
    seen.push({ url, range: req.headers.range });
    if (url === `/releases/${PLUGIN_VERSION}/${pack.file}`) return send(res, packBytes, req.headers.range);
    if (vulkan && url === `/releases/${PLUGIN_VERSION}/${vulkan.entry.file}`) return send(res, vulkan.bytes, req.headers.range);
    if (url === `/corrupt/${pack.file}`) return send(res, corrupt, req.headers.range);
    if (url === `/cut/${pack.file}`) {
      // The first attempt breaks off after a third of the file; the next resumes with a Range request.
      if (cutOnce && !req.headers.range) {
        cutOnce = false;
        res.writeHead(200, { "Content-Length": packBytes.length });
        res.write(packBytes.subarray(0, Math.floor(packBytes.length / 3)), () => res.socket?.destroy());
        return;
      }
      return send(res, packBytes, req.headers.range);
    }
    if (url.startsWith("/e500/")) {
      res.writeHead(500, "Internal Server Error");
      return res.end();
    }
    if (url.startsWith("/stall/")) {
      res.writeHead(200, { "Content-Length": packBytes.length });
      res.write(packBytes.subarray(0, 1000));
      return; // and never another byte
    }
    res.writeHead(404, "Not Found");
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  rmSync(work, { recursive: true, force: true });
});

function manifest(): PacksManifest {
  return { version: built.file.replace(/^vault-agent-runtime-/, "").replace(/-linux-x64\.tar\.gz$/, ""), releaseBase: `${base}/releases`, packs: [pack] };
}

function installer(pluginDir: string, opts: { mirror?: string; freeBytes?: (f: string) => Promise<number>; stallMs?: number } = {}): RuntimeInstaller {
  return new RuntimeInstaller({
    store: new RuntimeStore(pluginDir, "linux-x64"),
    manifest: manifest(),
    pluginVersion: PLUGIN_VERSION,
    mirror: () => opts.mirror ?? "",
    host,
    launcher: (folder, script) => obsidianHostLauncher(folder, script),
    freeBytes: opts.freeBytes,
    stallMs: opts.stallMs,
  });
}

/** Every path under a folder (for "nothing was written" checks). */
function tree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort();
}

describe("runtime pack install from 127.0.0.1", () => {
  let pluginDir: string;
  let installedFolder: string;

  it("builds the same pack as runtime-packs.json lists for linux-x64", () => {
    const committed = JSON.parse(readFileSync(join(repo, "runtime-packs.json"), "utf8")) as PacksManifest;
    expect(committed.packs.find((p) => p.platform === "linux-x64" && !p.gpu)).toEqual(pack);
    expect(committed.version).toBe(manifest().version);
  });

  it("installs the pack with progress, then the host runs from it and generates under a grammar", async () => {
    pluginDir = mkdtempSync(join(work, "plugin-"));
    const stages: InstallProgress["stage"][] = [];
    let lastReceived = 0;
    const outcome = await installer(pluginDir).install({
      onProgress: (p) => {
        if (stages.at(-1) !== p.stage) stages.push(p.stage);
        if (p.download) lastReceived = p.download.received;
      },
    });
    expect(stages).toEqual(["download", "verify", "extract", "check"]);
    expect(lastReceived).toBe(pack.bytes);
    installedFolder = join(pluginDir, "runtime", `${manifest().version}-linux-x64`);
    expect(outcome.runtime.folder).toBe(installedFolder);
    expect(outcome.check).toMatchObject({ gpu: false, nodeLlamaCpp: "3.21.1", vectorHits: 1 });
    // Checked from the staging folder, before the switch renamed it into place.
    expect(outcome.check.loadedFrom.startsWith(join(pluginDir, "runtime", `.staging-${manifest().version}-linux-x64-`))).toBe(true);
    expect(outcome.check.loadedFrom.endsWith("/node_modules/node-llama-cpp/package.json")).toBe(true);
    // No llama.cpp source and no other platform's binary in the installed folder.
    expect(existsSync(join(installedFolder, "node_modules/node-llama-cpp/llama/gitRelease.bundle"))).toBe(false);
    expect(readdirSync(join(installedFolder, "node_modules/@node-llama-cpp"))).toEqual(["linux-x64"]);
    expect(existsSync(join(installedFolder, "node_modules/openai"))).toBe(false);
    // The downloaded archive is gone once installed; the pointer names the folder.
    expect(tree(join(pluginDir, "runtime", "downloads"))).toEqual([]);
    expect(JSON.parse(readFileSync(join(pluginDir, "runtime", "current-linux-x64.json"), "utf8"))).toEqual({ folder: `${manifest().version}-linux-x64` });

    const script = await ensureHostScript(installedFolder, host.source, host.hash);
    const client = new EngineClient(obsidianHostLauncher(installedFolder, script.path), {
      model: { path: await testModelPath(), threads: 1, contextSize: 512 },
    });
    try {
      const grammar = compileEnvelopeGrammar([], { maxThoughtChars: 24, maxMessageChars: 24 }).gbnf;
      const result = await client.generate({ messages: [{ role: "user", content: "hello" }], grammar, maxTokens: 300, temperature: 0.8, seed: 7 });
      const envelope = JSON.parse(result.text) as Record<string, unknown>;
      expect(Object.keys(envelope)).toEqual(["thought", "status", "message_to_user", "tool_calls"]);
      expect(envelope.tool_calls).toEqual([]);
    } finally {
      await client.shutdown();
    }
  }, 240_000);

  it("refuses a pack with one byte changed before unpacking, and the previous runtime still works", async () => {
    const before = tree(pluginDir);
    const error = await installer(pluginDir, { mirror: `${base}/corrupt` })
      .install()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RuntimeInstallError);
    expect((error as Error).message).toMatch(/does not match the checksum this plugin version expects.*nothing was installed/);
    expect(tree(pluginDir)).toEqual(before);
    const store = new RuntimeStore(pluginDir, "linux-x64");
    expect((await store.current())?.folder).toBe(installedFolder);
    const script = await ensureHostScript(installedFolder, host.source, host.hash);
    const client = new EngineClient(obsidianHostLauncher(installedFolder, script.path));
    try {
      expect(await client.request("runtime.check", { gpu: false })).toMatchObject({ gpu: false, vectorHits: 1 });
    } finally {
      await client.shutdown();
    }
  }, 120_000);

  it("resumes an interrupted download with a Range request", async () => {
    const dir = mkdtempSync(join(work, "plugin-"));
    const inst = installer(dir, { mirror: `${base}/cut` });
    const first = await inst.install().catch((e: unknown) => e);
    expect((first as Error).message).toMatch(/ended early .* try again to resume it/);
    const part = join(dir, "runtime", "downloads", `${pack.file}.part`);
    const kept = readFileSync(part).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(pack.bytes);
    seen.length = 0;
    let resumedFrom = -1;
    await inst.install({ onProgress: (p) => (resumedFrom = p.download?.resumedFrom ?? resumedFrom) });
    expect(seen.find((s) => s.url.startsWith("/cut/"))?.range).toBe(`bytes=${kept}-`);
    expect(resumedFrom).toBe(kept);
    expect(await new RuntimeStore(dir, "linux-x64").current()).not.toBeNull();
  }, 240_000);

  it("ends a 404, a 500, a stalled server and a full disk in one sentence each, writing no runtime", async () => {
    const dir = mkdtempSync(join(work, "plugin-"));
    const failures = [
      { opts: { mirror: `${base}/missing` }, pattern: /^The server answered 404 Not Found for http:\/\/127\.0\.0\.1:\d+\/missing\/[^ ]+; check the address, or try again later\.$/ },
      { opts: { mirror: `${base}/e500` }, pattern: /^The server answered 500 Internal Server Error for .*; check the address, or try again later\.$/ },
      { opts: { mirror: `${base}/stall`, stallMs: 500 }, pattern: /^127\.0\.0\.1:\d+ stopped sending data for 1 seconds; try again later to resume the download\.$/ },
      { opts: { freeBytes: async () => 1_000_000 }, pattern: /^Not enough free disk space for .*: it needs 13\.\d MB and \d+ KB is free; free some space and try again\.$/ },
    ];
    for (const { opts, pattern } of failures) {
      const error = await installer(dir, opts)
        .install()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RuntimeInstallError);
      expect((error as Error).message).toMatch(pattern);
      expect((error as Error).message.split(/[.;] /).length).toBeLessThanOrEqual(3);
      expect(await new RuntimeStore(dir, "linux-x64").list()).toEqual([]);
      rmSync(join(dir, "runtime", "downloads"), { recursive: true, force: true });
    }
  }, 60_000);

  it("installs from a file with the same checks, and refuses a file that is no pack of this version", async () => {
    const dir = mkdtempSync(join(work, "plugin-"));
    const stranger = join(work, pack.file.replace("linux-x64", "win-x64"));
    writeFileSync(stranger, Buffer.concat([packBytes.subarray(0, 1000), Buffer.from("x")]));
    const error = await installer(dir)
      .installFromFile(stranger)
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/is not an engine pack of runtime .*: its checksum matches none of the packs/);
    expect(tree(join(dir, "runtime")).filter((p) => !p.startsWith("downloads"))).toEqual([]);
    const outcome = await installer(dir).installFromFile(built.path);
    expect(outcome.check.vectorHits).toBe(1);
    expect(existsSync(built.path)).toBe(true); // the user's file is left where it was
  }, 120_000);

  it("a Vulkan pack that cannot start here falls back to the CPU pack, saying so", async () => {
    const lockfile = JSON.parse(readFileSync(join(repo, "package-lock.json"), "utf8")) as Lockfile;
    const builtVulkan = await buildPack({ lockfile, platform: "linux-x64", gpu: "vulkan", outDir: join(work, "packs") });
    vulkan = {
      entry: { platform: "linux-x64", gpu: "vulkan", file: builtVulkan.file, bytes: builtVulkan.bytes, sha256: builtVulkan.sha256, unpackedBytes: builtVulkan.unpackedBytes },
      bytes: readFileSync(builtVulkan.path),
    };
    const committed = JSON.parse(readFileSync(join(repo, "runtime-packs.json"), "utf8")) as PacksManifest;
    expect(committed.packs.find((p) => p.platform === "linux-x64" && p.gpu === "vulkan")).toEqual(vulkan.entry);
    const dir = mkdtempSync(join(work, "plugin-"));
    const inst = new RuntimeInstaller({
      store: new RuntimeStore(dir, "linux-x64"),
      manifest: { ...manifest(), packs: [pack, vulkan.entry] },
      pluginVersion: PLUGIN_VERSION,
      mirror: () => "",
      host,
      launcher: (folder, script) => obsidianHostLauncher(folder, script),
    });
    expect(inst.offer("vulkan")?.fallback).toEqual(pack);
    const outcome = await inst.install({ gpu: "vulkan" });
    if (outcome.fellBack) {
      // No Vulkan device here (CI, this machine): the CPU pack is installed and nothing of the Vulkan one is left.
      expect(outcome.fellBack).toMatch(/^The Vulkan engine could not start on this computer \(.+\); the CPU engine was installed instead\.$/);
      expect(outcome.runtime.gpu).toBeUndefined();
      expect(outcome.check.gpu).toBe(false);
      expect((await new RuntimeStore(dir, "linux-x64").list()).map((r) => r.id)).toEqual([`${manifest().version}-linux-x64`]);
    } else {
      // A machine with Vulkan: the Vulkan binary itself passed the check.
      expect(outcome.runtime.gpu).toBe("vulkan");
      expect(outcome.check.gpu).toBe("vulkan");
    }
  }, 400_000);

  it("Remove engine frees the space and forgets the runtime", async () => {
    const store = new RuntimeStore(pluginDir, "linux-x64");
    const freed = await installer(pluginDir).remove();
    expect(freed).toBeGreaterThan(built.unpackedBytes);
    expect(await store.current()).toBeNull();
    expect(await store.list()).toEqual([]);
  });
});
