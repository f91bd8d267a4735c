/**
 * The behaviour every TextStore must have, as one vitest suite over a real folder: the index in this process
 * (LocalTextStore), in the engine host's ops and in the search worker (RemoteTextStore over either), so that where
 * the full-text index runs never changes what a search finds.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TextStore } from "../../src/core/memory/text-store";

/** A store over `folder`, and how to end it (a restart: a second `create` over the same folder reads what was saved). */
export interface TextStoreMaker {
  create(folder: string): Promise<{ store: TextStore; end(): Promise<void> }>;
}

const NOTES: Record<string, string> = {
  "Recipes/Soup.md": "---\ntags: [cooking]\n---\n# Soup\nRed lentils and cumin, simmered for an hour.",
  "Garden.md": "# Garden\nTomatoes need sun and water every morning.",
  "Garden/Beds.md": "# Beds\nThe raised beds hold lentils, once, by mistake.",
  "Projects/Offline sync.md": "# Offline sync\n## Queue\nThe sync queue retries when the server is back.",
};

export function describeTextStoreContract(name: string, maker: TextStoreMaker): void {
  describe(`${name} (TextStore contract)`, () => {
    let dir: string;
    const ends: (() => Promise<void>)[] = [];
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), "text-contract-"));
    });
    afterEach(async () => {
      for (const end of ends.splice(0)) await end().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    });
    const open = async () => {
      const made = await maker.create(dir);
      ends.push(made.end);
      return made;
    };
    const fill = (store: TextStore) => {
      let n = 0;
      for (const [path, text] of Object.entries(NOTES)) store.set(path, text, `h${++n}`);
    };

    it("starts empty without a saved index, then finds notes by their words, best first", async () => {
      const { store } = await open();
      expect(await store.load()).toBe(false);
      fill(store);
      expect(store.hashOf("Garden.md")).toBe("h2");
      expect(store.paths().sort()).toEqual(Object.keys(NOTES).sort());
      const hits = await store.search("lentils", 5);
      expect(hits.map((h) => h.path).sort()).toEqual(["Garden/Beds.md", "Recipes/Soup.md"]);
      expect(hits[0].terms.length).toBeGreaterThan(0);
      expect((await store.search("sync queue", 5))[0].path).toBe("Projects/Offline sync.md");
      expect(await store.search("   ", 5)).toEqual([]);
    });

    it("limits a search to a folder and applies removals and replacements", async () => {
      const { store } = await open();
      await store.load();
      fill(store);
      expect((await store.search("lentils", 5, { pathPrefix: "Garden/" })).map((h) => h.path)).toEqual(["Garden/Beds.md"]);
      store.remove("Garden/Beds.md");
      store.set("Recipes/Soup.md", "# Soup\nPotatoes and leeks.", "h9");
      expect(await store.search("lentils", 5)).toEqual([]);
      expect(store.hashOf("Garden/Beds.md")).toBeUndefined();
      expect(store.hashOf("Recipes/Soup.md")).toBe("h9");
      expect((await store.search("leeks", 5)).map((h) => h.path)).toEqual(["Recipes/Soup.md"]);
    });

    it("saves and reloads to the same hashes and the same results and scores", async () => {
      const first = await open();
      await first.store.load();
      fill(first.store);
      const before = await first.store.search("lentils tomatoes queue", 10);
      await first.store.save();
      await first.end();
      expect((await readdir(dir)).filter((f) => f.startsWith("text-index")).length).toBeGreaterThan(1);
      const { store } = await open();
      expect(await store.load()).toBe(true);
      expect(store.hashOf("Recipes/Soup.md")).toBe("h1");
      expect(store.paths().sort()).toEqual(Object.keys(NOTES).sort());
      expect(await store.search("lentils tomatoes queue", 10)).toEqual(before);
    });

    it("treats a corrupt head as no index: false, empty, and usable", async () => {
      await writeFile(join(dir, "text-index.json"), "{ not json");
      const { store } = await open();
      expect(await store.load()).toBe(false);
      expect(store.paths()).toEqual([]);
      store.set("Garden.md", NOTES["Garden.md"], "h1");
      expect((await store.search("tomatoes", 3)).map((h) => h.path)).toEqual(["Garden.md"]);
    });
  });
}
