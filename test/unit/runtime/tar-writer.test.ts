/** The deterministic archive: same files in any order give the same bytes; system tar reads it with fixed metadata. */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { tarGz, type TarFile } from "../../../src/node/runtime-pack/tar-writer";

const files: TarFile[] = [
  { path: "node_modules/b/index.js", data: Buffer.from("b") },
  { path: "node_modules/a/bin/run.js", data: Buffer.from("#!/usr/bin/env node\n"), executable: true },
  { path: `node_modules/${"deep/".repeat(30)}file.js`, data: Buffer.alloc(700, 1) },
  { path: "runtime.json", data: Buffer.from("{}") },
];
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

describe("deterministic tar.gz", () => {
  it("gives the same bytes for the same files in any order", () => {
    expect(sha(tarGz(files))).toBe(sha(tarGz([...files].reverse())));
  });

  it("has no timestamp in the gzip header", () => {
    const gz = tarGz(files);
    expect([...gz.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(gunzipSync(gz).length % 512).toBe(0);
  });

  it("is read by system tar with sorted entries, a fixed mtime, root owner and fixed modes", () => {
    const dir = mkdtempSync(join(tmpdir(), "tar-writer-"));
    try {
      const file = join(dir, "p.tar.gz");
      writeFileSync(file, tarGz(files));
      const lines = execFileSync("tar", ["-tvzf", file], { encoding: "utf8", env: { ...process.env, TZ: "UTC" } }).trim().split("\n");
      const names = lines.map((l) => l.split(/\s+/).slice(5).join(" "));
      expect(names).toEqual([...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
      expect(names).toContain(`node_modules/${"deep/".repeat(30)}file.js`);
      for (const l of lines) expect(l).toMatch(/ root\/root .* 2000-01-01 00:00 /);
      expect(lines.find((l) => l.endsWith("run.js"))).toMatch(/^-rwxr-xr-x/);
      expect(lines.find((l) => l.endsWith("b/index.js"))).toMatch(/^-rw-r--r--/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses unsafe or duplicate paths", () => {
    expect(() => tarGz([{ path: "../x", data: Buffer.from("") }])).toThrow(/not a clean relative path/);
    expect(() => tarGz([{ path: "/abs", data: Buffer.from("") }])).toThrow(/not a clean relative path/);
    expect(() => tarGz([files[0], files[0]])).toThrow(/twice/);
  });
});
