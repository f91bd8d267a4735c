import { describe, expect, it } from "vitest";
import { run as runIndex, usage as indexUsage } from "../../../src/node/commands/index";
import { run as runSearch, usage as searchUsage } from "../../../src/node/commands/search";
import { UsageError } from "../../../src/node/cli-types";
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exampleVault } from "./memory-fixture";

/** Collects what the command writes to stdout into `out` and drops stderr; returns the function that restores both. */
function captureOutput(out: string[]): () => void {
  const write = process.stdout.write.bind(process.stdout);
  const errWrite = process.stderr.write.bind(process.stderr);
  process.stdout.write = (chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  };
  process.stderr.write = () => true;
  return () => {
    process.stdout.write = write;
    process.stderr.write = errWrite;
  };
}

describe("index and search commands: bad usage", () => {
  it("say what is missing in one sentence", async () => {
    await expect(runIndex([])).rejects.toThrow(new UsageError("Name the vault folder with --vault DIR."));
    await expect(runSearch(["--vault", "."])).rejects.toThrow(/Give a QUERY/);
    await expect(runSearch(["--vault", ".", "--semantic", "x"])).rejects.toThrow(/needs the embedding model.*--embed-model F/);
    await expect(runSearch(["--vault", ".", "--hybrid", "x"])).rejects.toThrow(/Hybrid search needs the embedding model/);
    await expect(runSearch(["--vault", ".", "--file", "q.txt", "x"])).rejects.toThrow(/either a QUERY or --file F/);
    await expect(runSearch(["--vault", ".", "--limit", "0", "x"])).rejects.toThrow(/--limit must be a whole number/);
    await expect(runSearch(["--vault", ".", "--folder", "../elsewhere", "x"])).rejects.toThrow(/--folder must be a folder inside the vault/);
    await expect(runIndex(["--vault", "/nonexistent/vault"])).rejects.toThrow(/does not exist; pass an existing folder with --vault/);
    expect(indexUsage).toMatch(/^index --vault DIR/);
    expect(searchUsage).toMatch(/^search --vault DIR/);
  });
});

describe("search --folder", () => {
  it("searches only that folder, inside the index query", async () => {
    const root = await mkdtemp(join(tmpdir(), "cli-folder-"));
    await cp(exampleVault, root, { recursive: true });
    const out: string[] = [];
    const restore = captureOutput(out);
    try {
      expect(await runSearch(["--vault", root, "--index-dir", join(root, ".idx"), "--json", "--limit", "50", "lentils"])).toBe(0);
      const all = out.splice(0).join("").trim().split("\n").map((l) => (JSON.parse(l) as { path: string }).path);
      expect(all.some((p) => !p.startsWith("Recipes/"))).toBe(true);
      expect(await runSearch(["--vault", root, "--index-dir", join(root, ".idx"), "--folder", "Recipes/", "--json", "lentils"])).toBe(0);
      const inFolder = out.join("").trim().split("\n").map((l) => (JSON.parse(l) as { path: string }).path);
      expect(inFolder.length).toBeGreaterThan(0);
      for (const p of inFolder) expect(p.startsWith("Recipes/")).toBe(true);
    } finally {
      restore();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe("search --file", () => {
  it("answers one JSON line per query line, in order, blank lines skipped", async () => {
    const root = await mkdtemp(join(tmpdir(), "cli-file-"));
    await cp(exampleVault, root, { recursive: true });
    const queries = join(root, ".queries.txt");
    await writeFile(queries, "lentils\n\nzzqx qqzy\nshakshuka\n");
    const out: string[] = [];
    const restore = captureOutput(out);
    try {
      expect(await runSearch(["--vault", root, "--index-dir", join(root, ".idx"), "--limit", "3", "--file", queries])).toBe(0);
      const lines = out.join("").trim().split("\n").map((l) => JSON.parse(l) as { query: string; ms: number; results: { path: string }[] });
      expect(lines.map((l) => l.query)).toEqual(["lentils", "zzqx qqzy", "shakshuka"]);
      expect(lines[0].results.length).toBeGreaterThan(0);
      expect(lines[1].results).toEqual([]);
      expect(lines[2].results[0].path).toBe("Recipes/Shakshuka.md");
      for (const l of lines) expect(l.ms).toBeGreaterThanOrEqual(0);
    } finally {
      restore();
      await rm(root, { recursive: true, force: true });
    }
  });
});
