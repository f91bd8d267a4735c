import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, rm, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RemoteTextStore } from "../../../src/engine/vector/remote-text-store";
import { vectorOps } from "../../../src/host/vector/host-ops";

/** The host's ops called in-process, as the engine client would over the pipe (with a JSON round trip). */
const requester = {
  calls: [] as string[],
  async request(op: string, params: unknown): Promise<unknown> {
    this.calls.push(op);
    const handler = vectorOps[op];
    if (!handler) throw new Error(`no op ${op}`);
    return JSON.parse(JSON.stringify(await handler(JSON.parse(JSON.stringify(params)))));
  },
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "text-host-"));
  requester.calls.length = 0;
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("RemoteTextStore over the host's text ops", () => {
  it("indexes in batches, searches, saves, and reloads with hashes", async () => {
    const store = new RemoteTextStore(requester, dir);
    expect(await store.load()).toBe(false);
    store.set("Recipes/Soup.md", "# Soup\nRed lentils and cumin.", "h1");
    store.set("Garden.md", "# Garden\nTomatoes need sun.", "h2");
    store.set("Old.md", "# Old\nlentils once", "h3");
    store.remove("Old.md");
    expect(requester.calls).toEqual(["text.open"]);
    expect(store.hashOf("Garden.md")).toBe("h2");
    expect(store.paths().sort()).toEqual(["Garden.md", "Recipes/Soup.md"]);
    const hits = await store.search("lentils", 5);
    expect(hits.map((h) => h.path)).toEqual(["Recipes/Soup.md"]);
    expect(requester.calls).toEqual(["text.open", "text.update", "text.search"]);
    await store.save();
    expect((await readdir(dir)).filter((f) => f.startsWith("text-index")).length).toBeGreaterThan(1);
    await vectorOps["text.close"]({ folder: dir });
    const again = new RemoteTextStore(requester, dir);
    expect(await again.load()).toBe(true);
    expect(again.hashOf("Recipes/Soup.md")).toBe("h1");
    expect((await again.search("tomatoes", 5))[0].path).toBe("Garden.md");
    // The folder filter travels to the host's query.
    again.set("Garden/Beds.md", "# Beds\nlentils, once, by mistake", "h4");
    expect((await again.search("lentils", 5)).map((h) => h.path).sort()).toEqual(["Garden/Beds.md", "Recipes/Soup.md"]);
    expect((await again.search("lentils", 5, { pathPrefix: "Garden/" })).map((h) => h.path)).toEqual(["Garden/Beds.md"]);
    expect((await again.search("lentils", 5, { pathPrefix: "Recipes" })).map((h) => h.path)).toEqual(["Recipes/Soup.md"]);
  });

  it("sends about a megabyte at a time while indexing", async () => {
    const store = new RemoteTextStore(requester, dir);
    await store.load();
    const text = "word ".repeat(50_000);
    for (let i = 0; i < 10; i++) store.set(`N${i}.md`, text, `h${i}`);
    await new Promise((r) => setTimeout(r, 20));
    expect(requester.calls.filter((c) => c === "text.update").length).toBeGreaterThanOrEqual(2);
    await store.save();
    expect((await store.search("word", 20)).length).toBe(10);
  });
});
