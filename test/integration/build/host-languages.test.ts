/**
 * main.js carries the engine host without the router's language tables (it has them already): the release host bundle
 * holds a slot in their place once, and what main.js writes to the plugin folder (engineHostSource, filling the slot
 * with its own tables) is exactly the runnable host the build writes, so the hash main.js marks it with is that host's.
 */
import { describe, expect, it } from "vitest";
import { engineHostSource } from "../../../src/plugin/engine/host-source";
import { repoRoot } from "../../helpers/host-bundle";

// @ts-expect-error -- the build script is plain JavaScript.
const config = (await import("../../../esbuild.config.mjs")) as {
  buildHostParts(): Promise<{ text: string; slotted: string }>;
  packHost(text: string): string;
  HOST_LANGUAGES_SLOT: string;
};

describe("the engine host main.js embeds", () => {
  it("leaves the language tables out once and gets them back from main.js as the build fills them", async () => {
    const cwd = process.cwd();
    process.chdir(repoRoot);
    let host: { text: string; slotted: string };
    try {
      host = await config.buildHostParts();
    } finally {
      process.chdir(cwd);
    }
    expect(host.slotted.split(JSON.stringify(config.HOST_LANGUAGES_SLOT)).length - 1).toBe(1);
    // A word only the German table holds: not in main.js's copy of the host, but in the host it writes.
    expect(host.slotted).not.toContain("dankeschon");
    expect(host.text).toContain("dankeschon");
    expect(engineHostSource(config.packHost(host.slotted))).toBe(host.text);
  }, 60_000);
});
