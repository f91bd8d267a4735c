/** scripts/check-sizes.mjs: the size limits CI enforces on src/ (150 lines a function, 800 a file). */
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const script = join(import.meta.dirname, "..", "..", "..", "scripts", "check-sizes.mjs");

async function checkSizes(dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [script, dir]);
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
});
