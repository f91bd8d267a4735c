/**
 * What esbuild.config.mjs leaves out of main.js must stay unused there: zod's fromJSONSchema (a stub that throws in
 * the plugin build) and ajv (the build refuses it; main.js validates with @cfworker/json-schema). Only the headless
 * code (src/node) and the engine host (src/host) may use them. Nor does plugin code give the MCP client an OAuth
 * provider: the SDK's OAuth client is a stub in main.js (esbuild.config.mjs, mcpWithoutOAuth). And zod is imported as a
 * namespace (`import * as z`): `import { z } from "zod"` hands main.js zod's `z` object whole, which esbuild cannot
 * tree-shake (about 70 KiB more).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../..", import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const pluginSide = [...files(join(repo, "src")), join(repo, "main.ts")].filter((f) => !/[\\/]src[\\/](node|host)[\\/]/.test(f));

describe("parts left out of main.js", () => {
  it.each([
    ["z.fromJSONSchema", /\bfromJSONSchema\b/],
    ["ajv", /from\s+["']ajv(-formats)?(\/[^"']*)?["']/],
    ["an MCP OAuth provider", /\bauthProvider\b|@modelcontextprotocol\/sdk\/client\/auth/],
    ["zod's z object (import * as z from \"zod\" lets esbuild shake what is unused)", /import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*["']zod["']/],
  ])("%s is not used by code that main.js bundles", (_name, pattern) => {
    const users = pluginSide.filter((f) => pattern.test(readFileSync(f, "utf8"))).map((f) => relative(repo, f));
    expect(users).toEqual([]);
  });
});
