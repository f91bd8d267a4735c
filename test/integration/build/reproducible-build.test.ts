/**
 * The release build of main.js is reproducible and packed: two builds from the same sources are the same bytes
 * (a release's SHA256SUMS and attestations mean something only then), the router's language tables are not in it
 * as text (they ship deflated), and it is within the 1,024 KiB limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import esbuild from "esbuild";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "repro-build-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("release build of main.js", () => {
  it("is the same bytes twice, carries the language tables packed, and fits 1,024 KiB", async () => {
    // @ts-expect-error -- the build script is plain JavaScript.
    const config = (await import("../../../esbuild.config.mjs")) as { mainOptions: (host: string) => esbuild.BuildOptions };
    // @ts-expect-error -- plain JavaScript too.
    const { MAX_MAIN_JS_BYTES } = (await import("../../../scripts/bundle-limit.mjs")) as { MAX_MAIN_JS_BYTES: number };
    // A stand-in host script: its packing (brotli) must be deterministic as well.
    const host = `export const hostMarker = ${JSON.stringify("engine host ".repeat(2000))};\n`;
    const build = async (name: string) => {
      const outfile = join(dir, name);
      await esbuild.build({ ...config.mainOptions(host), outfile, minify: true, sourcemap: false, logLevel: "silent" });
      return readFile(outfile);
    };
    const [first, second] = [await build("a.js"), await build("b.js")];
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    expect(sha(second)).toBe(sha(first));
    const text = first.toString("utf8");
    // A word only the German table holds: in the sources, but deflated in main.js.
    expect(await readFile(join(import.meta.dirname, "..", "..", "..", "src", "core", "router", "languages", "de.ts"), "utf8")).toContain("dankeschon");
    expect(text).not.toContain("dankeschon");
    expect(first.length).toBeLessThanOrEqual(MAX_MAIN_JS_BYTES);
  }, 120_000);
});
