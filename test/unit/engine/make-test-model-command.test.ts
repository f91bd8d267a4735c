import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { UsageError } from "../../../src/node/cli-types";
import { run } from "../../../src/node/commands/make-test-model";

const dir = mkdtempSync(join(tmpdir(), "make-test-model-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex");

describe("make-test-model command", () => {
  it("writes the model, prints its path, and gives the same bytes for the same arguments", async () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const a = join(dir, "a.gguf");
      const b = join(dir, "b.gguf");
      expect(await run(["--out", a, "--vocab", "3000", "--seed", "9"])).toBe(0);
      expect(await run(["--out", b, "--vocab", "3000", "--seed", "9"])).toBe(0);
      expect(out).toHaveBeenCalledWith(a + "\n");
      expect(sha(a)).toBe(sha(b));
      expect(readFileSync(a).subarray(0, 4).toString()).toBe("GGUF");
    } finally {
      out.mockRestore();
    }
  });

  it("treats a missing --out or a bad number as a usage error", async () => {
    await expect(run([])).rejects.toBeInstanceOf(UsageError);
    await expect(run(["--out", join(dir, "c.gguf"), "--vocab", "lots"])).rejects.toThrow(/whole number/);
    await expect(run(["--out", join(dir, "c.gguf"), "--vocab", "10"])).rejects.toThrow(/from 2048 to 65536/);
  });
});
