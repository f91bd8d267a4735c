import { describe, expect, it } from "vitest";
import { run as runIndex, usage as indexUsage } from "../../../src/node/commands/index";
import { run as runSearch, usage as searchUsage } from "../../../src/node/commands/search";
import { UsageError } from "../../../src/node/cli-types";

describe("index and search commands: bad usage", () => {
  it("say what is missing in one sentence", async () => {
    await expect(runIndex([])).rejects.toThrow(new UsageError("Name the vault folder with --vault DIR."));
    await expect(runSearch(["--vault", "."])).rejects.toThrow(/Give a QUERY/);
    await expect(runSearch(["--vault", ".", "--semantic", "x"])).rejects.toThrow(/needs the embedding model.*--embed-model F/);
    await expect(runSearch(["--vault", ".", "--limit", "0", "x"])).rejects.toThrow(/--limit must be a whole number/);
    await expect(runIndex(["--vault", "/nonexistent/vault"])).rejects.toThrow(/does not exist; pass an existing folder with --vault/);
    expect(indexUsage).toMatch(/^index --vault DIR/);
    expect(searchUsage).toMatch(/^search --vault DIR/);
  });
});
