/**
 * main.js where there is no Node (Obsidian mobile): the bundle is built as a release builds it, evaluated with a
 * `require` that hands out the `obsidian` stub and the CodeMirror packages Obsidian's editor is made of (the app
 * provides them on mobile as on desktop) and throws for every other module, and the plugin is constructed
 * with Platform saying "mobile app". Nothing may reach a Node module, at load or when its services are made.
 * (onload itself needs a DOM; the Chromium harness runs it.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInThisContext } from "node:vm";
import esbuild from "esbuild";
import * as obsidian from "obsidian";
import * as cmState from "@codemirror/state";
import * as cmView from "@codemirror/view";
import { fakeApp } from "../../fakes/fake-app";

let dir: string;
let code = "";
const saved = { ...obsidian.Platform };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mobile-load-"));
  // @ts-expect-error -- the build script is plain JavaScript.
  const { mainOptions } = (await import("../../../esbuild.config.mjs")) as { mainOptions: (host: string) => esbuild.BuildOptions };
  await esbuild.build({ ...mainOptions(""), outfile: join(dir, "main.js"), minify: false, sourcemap: false, logLevel: "silent" });
  code = await readFile(join(dir, "main.js"), "utf8");
  Object.assign(obsidian.Platform, { isDesktop: false, isMobile: true, isDesktopApp: false, isMobileApp: true });
});
afterAll(async () => {
  Object.assign(obsidian.Platform, saved);
  await rm(dir, { recursive: true, force: true });
});

/** Evaluates the bundle; `asked` collects every module it required. */
function load(asked: string[]): new (app: unknown, manifest: unknown) => { createServices(): Promise<Record<string, (...args: unknown[]) => unknown>> } {
  const mod = { exports: {} as Record<string, unknown> };
  const require = (name: string) => {
    asked.push(name);
    if (name === "obsidian") return obsidian;
    if (name === "@codemirror/state") return cmState;
    if (name === "@codemirror/view") return cmView;
    throw new Error(`main.js required "${name}", which does not exist on mobile`);
  };
  // Wrapped as Obsidian wraps a plugin: module, exports and require are the only names it is given.
  (runInThisContext(`(function (module, exports, require) {${code}\n})`) as (m: unknown, e: unknown, r: unknown) => void)(mod, mod.exports, require);
  return mod.exports.default as never;
}

describe("main.js without Node", () => {
  it("loads requiring nothing but obsidian, and the plugin makes its mobile services without reaching Node", async () => {
    const asked: string[] = [];
    const Plugin = load(asked);
    expect(typeof Plugin).toBe("function");
    const { app } = fakeApp();
    const plugin = new Plugin(app, { id: "vault-agent", name: "Vault Agent", version: "0.1.0", dir: ".obsidian/plugins/vault-agent" });
    const services = await plugin.createServices();
    expect(services.absolutePath("a.md")).toBeNull();
    expect(await services.listModels()).toEqual([]);
    expect(services.flatVectorPrecision).toBe("int8");
    // The built-in engine is refused with the one line that says why and what to use instead.
    await expect(services.createEngine({ engineKind: "builtin", modelPath: "/m.gguf" })).rejects.toThrow(/Needs the desktop app.*llama\.cpp or OpenAI-compatible server/);
    // A server engine is made here, in the renderer, with no engine host.
    await expect(services.testServer({ kind: "llama-server", url: "http://127.0.0.1:9" })).rejects.toThrow(/cannot be reached/);
    expect([...new Set(asked)].filter((n) => !n.startsWith("@codemirror/")).sort()).toEqual(["obsidian"]);
  });
});
