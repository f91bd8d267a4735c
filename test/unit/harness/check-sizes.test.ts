/** scripts/check-sizes.mjs: the size limits CI enforces on src/ (150 lines a function, 800 a file) and on main.js (1,024 KiB). */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const script = join(import.meta.dirname, "..", "..", "..", "scripts", "check-sizes.mjs");

async function checkSizes(dir: string, ...more: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script, dir, ...more]);
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

/** A function whose text, from its first line to its closing brace, is `lines` lines long. */
const fn = (name: string, lines: number) => `export function ${name}(): number {\n${"  void 0;\n".repeat(lines - 3)}  return 1;\n}\n`;

describe("check-sizes", () => {
  it("passes a folder whose functions and files are within the limits", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sizes-"));
    writeFileSync(join(dir, "ok.ts"), fn("fits", 150) + "\n".repeat(640));
    const r = await checkSizes(dir);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("within the size limits");
  });

  it("lists a function over 150 lines, a method with its class, and a file over 800 lines, and exits 1", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sizes-"));
    writeFileSync(join(dir, "long-fn.ts"), "// header\n" + fn("tooLong", 151));
    const body = "    void 0;\n".repeat(160);
    writeFileSync(join(dir, "long-method.ts"), `export class Shelf {\n  arrange = (): void => {\n${body}  };\n}\n`);
    writeFileSync(join(dir, "long-file.ts"), "export const x = 1;\n".repeat(801));
    const r = await checkSizes(dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain("long-fn.ts:2  function tooLong: 151 lines (limit 150)");
    expect(r.out).toContain("long-method.ts:2  function Shelf.arrange: 162 lines (limit 150)");
    expect(r.out).toContain("long-file.ts:1  file: 801 lines (limit 800)");
    expect(r.out).toContain("3 over the size limits");
  });

  it("fails a release bundle one byte over 1,024 KiB with a sentence, and passes one at exactly 1,024 KiB", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sizes-"));
    writeFileSync(join(dir, "ok.ts"), fn("fits", 10));
    const over = join(dir, "over.js");
    writeFileSync(over, "x".repeat(1024 * 1024 + 1));
    const atLimit = join(dir, "at-limit.js");
    writeFileSync(atLimit, "x".repeat(1024 * 1024));
    const failed = await checkSizes(dir, "--bundle", over);
    expect(failed.code).toBe(1);
    expect(failed.out).toMatch(/over\.js is 1024\.0 KiB, over the 1024\.0 KiB limit; keep desktop-only or rarely used parts out of main\.js/);
    const passed = await checkSizes(dir, "--bundle", atLimit);
    expect(passed.code, passed.out).toBe(0);
    expect(passed.out).toContain("1024.0 KiB, within its limit");
  });

  it("does not judge a development bundle by its size (its source map is inline), and fails when --bundle names no file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sizes-"));
    writeFileSync(join(dir, "ok.ts"), fn("fits", 10));
    const dev = join(dir, "dev.js");
    writeFileSync(dev, "x".repeat(1024 * 1024 + 1) + "\n//# sourceMappingURL=data:application/json;base64,e30=\n");
    const r = await checkSizes(dir, "--bundle", dev);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("is a development build");
    const missing = await checkSizes(dir, "--bundle", join(dir, "absent.js"));
    expect(missing.code).toBe(1);
    expect(missing.out).toContain("does not exist; run npm run build first");
  });
});
