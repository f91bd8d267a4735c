/** Node's built-ins for desktop-only code: provided by the plugin's desktop entry, else Node's own, else one sentence. */
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeBuiltin, nodeModule, provideNodeBuiltins } from "../../../src/engine/node-builtins";

const realGet = process.getBuiltinModule;

afterEach(() => {
  process.getBuiltinModule = realGet;
  provideNodeBuiltins({ path: undefined });
});

describe("node built-ins for desktop-only code", () => {
  it("finds Node's own module in plain Node", () => {
    expect(nodeBuiltin("fs").readFileSync).toBe(fs.readFileSync);
    expect(nodeModule("path").join("a", "b")).toBe(path.join("a", "b"));
  });

  it("prefers what the desktop entry provided", () => {
    const fake = { ...path, basename: () => "provided" } as typeof path;
    provideNodeBuiltins({ path: fake });
    expect(nodeBuiltin("path")).toBe(fake);
  });

  it("looks the module up only when a member is used, so a file that names it loads where Node is absent", () => {
    process.getBuiltinModule = undefined as unknown as typeof process.getBuiltinModule;
    const zlib = nodeModule("zlib");
    expect(() => zlib.brotliDecompressSync).toThrow("This part of Vault Agent needs Node (Obsidian's desktop app or the command line); it is not available here.");
  });

  it("binds functions to their module and leaves constructors as they are", () => {
    const streams = nodeModule("fs");
    expect(streams.existsSync(path.join(process.cwd(), "package.json"))).toBe(true);
    expect(streams.ReadStream).toBe(fs.ReadStream);
    const stream = fs.createReadStream(path.join(process.cwd(), "package.json"));
    expect(stream instanceof streams.ReadStream).toBe(true);
    stream.destroy();
  });
});
