/**
 * Installed runtimes on disk: the pointer is per platform, so a vault synced from another computer never makes
 * this one load that computer's binary; an older runtime makes "Engine update needed"; a developer's node_modules
 * counts as installed; and moving the data folder carries models and runtimes along.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { moveDataFolders, userDataFolder } from "../../../src/plugin/runtime/data-location";
import type { PacksManifest } from "../../../src/desktop/runtime/pack-format";
import { DiskRuntimeService } from "../../../src/plugin/runtime/runtime-service";
import { RuntimeStore } from "../../../src/desktop/runtime/runtime-store";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "runtime-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function fakeInstall(base: string, id: string): void {
  mkdirSync(join(base, "runtime", id, "node_modules"), { recursive: true });
  writeFileSync(join(base, "runtime", id, "runtime.json"), "{}");
}

const manifest: PacksManifest = {
  version: "3.21.1-bbbbbbbb",
  releaseBase: "https://example.invalid/releases",
  packs: [{ platform: "linux-x64", file: "vault-agent-runtime-3.21.1-bbbbbbbb-linux-x64.tar.gz", bytes: 14_000_000, sha256: "a".repeat(64), unpackedBytes: 44_000_000 }],
};

function service(platform: "linux-x64" | "win-x64", pluginDir = dir): DiskRuntimeService {
  return new DiskRuntimeService({
    pluginDir,
    dataFolder: () => pluginDir,
    manifest,
    pluginVersion: "0.2.0",
    mirror: () => "",
    host: { source: "", hash: "" },
    launcher: () => {
      throw new Error("not started in this test");
    },
    platform,
  });
}

describe("runtime store", () => {
  it("keeps one pointer per platform and ignores the other platform's folders", async () => {
    fakeInstall(dir, "3.21.1-bbbbbbbb-win-x64");
    fakeInstall(dir, "3.21.1-bbbbbbbb-linux-x64");
    const win = new RuntimeStore(dir, "win-x64");
    const linux = new RuntimeStore(dir, "linux-x64");
    await win.switchTo("3.21.1-bbbbbbbb-win-x64");
    expect(await linux.current()).toBeNull();
    expect((await win.current())?.platform).toBe("win-x64");
    expect((await linux.list()).map((r) => r.id)).toEqual(["3.21.1-bbbbbbbb-linux-x64"]);
    await expect(linux.switchTo("3.21.1-bbbbbbbb-win-x64")).rejects.toThrow(/not a runtime for linux-x64/);
    // A pointer edited to name another platform's folder is not followed.
    writeFileSync(join(dir, "runtime", "current-linux-x64.json"), JSON.stringify({ folder: "3.21.1-bbbbbbbb-win-x64" }));
    expect(await linux.current()).toBeNull();
    writeFileSync(join(dir, "runtime", "current-linux-x64.json"), JSON.stringify({ folder: "../../elsewhere-linux-x64" }));
    expect(await linux.current()).toBeNull();
  });

  it("says Engine update needed when only an older runtime is installed, and ready when the needed one is", async () => {
    fakeInstall(dir, "3.20.0-aaaaaaaa-linux-x64");
    await new RuntimeStore(dir, "linux-x64").switchTo("3.20.0-aaaaaaaa-linux-x64");
    const old = await service("linux-x64").status();
    expect(old).toMatchObject({ ready: false, updateNeeded: true, needed: "3.21.1-bbbbbbbb" });
    expect(old.offer?.url).toBe("https://example.invalid/releases/0.2.0/vault-agent-runtime-3.21.1-bbbbbbbb-linux-x64.tar.gz");
    expect(await service("linux-x64").hostFolder()).toBeNull();
    fakeInstall(dir, "3.21.1-bbbbbbbb-linux-x64");
    await new RuntimeStore(dir, "linux-x64").switchTo("3.21.1-bbbbbbbb-linux-x64");
    expect(await service("linux-x64").status()).toMatchObject({ ready: true, updateNeeded: false });
    expect(await service("linux-x64").hostFolder()).toBe(join(dir, "runtime", "3.21.1-bbbbbbbb-linux-x64"));
    // The Windows machine of the same synced vault has nothing installed and no pack in this manifest.
    expect(await service("win-x64").status()).toMatchObject({ ready: false, current: null, offer: null });
  });

  it("uses a developer install (node_modules in the plugin folder) when no pack is installed", async () => {
    mkdirSync(join(dir, "node_modules", "node-llama-cpp"), { recursive: true });
    writeFileSync(join(dir, "node_modules", "node-llama-cpp", "package.json"), JSON.stringify({ version: "3.21.1" }));
    expect(await service("linux-x64").status()).toMatchObject({ ready: true, developer: true, updateNeeded: false });
    expect(await service("linux-x64").hostFolder()).toBe(dir);
  });

  it("moves models and runtimes to the per-user folder and refuses to overwrite", async () => {
    const from = join(dir, "vault", ".obsidian", "plugins", "vault-agent");
    const to = join(dir, "user");
    mkdirSync(join(from, "models"), { recursive: true });
    writeFileSync(join(from, "models", "m.gguf"), "GGUF");
    fakeInstall(from, "3.21.1-bbbbbbbb-linux-x64");
    expect(await moveDataFolders(from, to)).toEqual(["models", "runtime"]);
    expect(readFileSync(join(to, "models", "m.gguf"), "utf8")).toBe("GGUF");
    expect(existsSync(join(to, "runtime", "3.21.1-bbbbbbbb-linux-x64", "runtime.json"))).toBe(true);
    expect(existsSync(join(from, "models"))).toBe(false);
    mkdirSync(join(from, "models"));
    writeFileSync(join(from, "models", "n.gguf"), "GGUF");
    await expect(moveDataFolders(from, to)).rejects.toThrow(/already exists; move or delete it first/);
    expect(existsSync(join(from, "models", "n.gguf"))).toBe(true);
  });

  it("puts the per-user folder where each system keeps application data", () => {
    expect(userDataFolder("darwin", {}, "/Users/me")).toBe("/Users/me/Library/Application Support/vault-agent");
    expect(userDataFolder("linux", {}, "/home/me")).toBe("/home/me/.local/share/vault-agent");
    expect(userDataFolder("linux", { XDG_DATA_HOME: "/data" }, "/home/me")).toBe("/data/vault-agent");
    expect(userDataFolder("win32", { LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, "C:\\Users\\me")).toMatch(/AppData.Local.vault-agent$/);
  });
});
