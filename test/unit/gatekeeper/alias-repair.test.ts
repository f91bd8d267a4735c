import { describe, expect, it } from "vitest";
import { repairAliases } from "../../../src/core/gatekeeper/alias-repair";

describe("alias repair", () => {
  it("renames a declared alias to the right key", () => {
    const r = repairAliases({ file: "Inbox.md", text: "x" }, ["path", "content"], { file: "path", text: "content" });
    expect(r.args).toEqual({ path: "Inbox.md", content: "x" });
    expect(r.renamed).toEqual([
      { from: "file", to: "path" },
      { from: "text", to: "content" },
    ]);
  });

  it("keeps the right key when both it and an alias are given", () => {
    const r = repairAliases({ file: "wrong.md", path: "right.md" }, ["path"], { file: "path" });
    expect(r.args.path).toBe("right.md");
    expect(r.args.file).toBe("wrong.md");
    expect(r.renamed).toEqual([]);
  });

  it("matches keys that differ only in case or separators", () => {
    expect(repairAliases({ Max_Results: 3 }, ["maxResults"]).args).toEqual({ maxResults: 3 });
  });

  it("leaves unknown keys for the validator to name", () => {
    expect(repairAliases({ colour: "red" }, ["path"]).args).toEqual({ colour: "red" });
  });
});
