import { describe, expect, it } from "vitest";
import { LIST_SEPARATOR, openedHashes } from "../../../src/core/memory/packed-list";

describe("openedHashes", () => {
  it("reads alternating paths and hashes from one string, pausing every 4,096 pairs", async () => {
    const pairs = Array.from({ length: 10_000 }, (_, i) => [`Folder ${i % 7}/Note ${i}.md`, `h${i}`]);
    let pauses = 0;
    const map = await openedHashes({ list: pairs.flat().join(LIST_SEPARATOR) }, async () => void pauses++);
    expect(map.size).toBe(10_000);
    expect(map.get("Folder 3/Note 9999.md")).toBe("h9999");
    expect(map.get("Folder 0/Note 0.md")).toBe("h0");
    expect(pauses).toBe(2);
    expect((await openedHashes({ list: "" })).size).toBe(0);
  });

  it("reads an older host's object of hashes", async () => {
    expect([...(await openedHashes({ hashes: { "a.md": "h1", "b.md": "h2" } }))]).toEqual([["a.md", "h1"], ["b.md", "h2"]]);
  });
});
