/** The vault's path tree: incremental updates give the same language as a fresh listing. */
import { describe, expect, it } from "vitest";
import { GbnfRecognizer } from "../../../src/core/grammar";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A grammar whose root is one JSON string naming a path of the tree (excluding some). */
function recognizer(index: VaultPathIndex, excluded: Set<string> = new Set()): GbnfRecognizer {
  const rules = index.rules(excluded)!;
  return new GbnfRecognizer(`root ::= "\\"" ${rules.root} "\\""\n${rules.text}`);
}

const FOLDERS = ["", "A/", "A/B/", "Ä/", "Notes/Deep/Er/"];
const NAMES = ["alpha", "Alpha", "alp", "b", "ß note", 'quote"d', "back\\slash", "émoji 🌱", "x.md", "2024-01-01"];

describe("vault path tree", () => {
  it("after random creates, deletes and renames, admits exactly the paths a fresh listing admits", () => {
    const rand = seeded(11);
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    const live = new VaultPathIndex();
    live.load([]);
    const truth = new Set<string>();
    for (let step = 0; step < 300; step++) {
      const path = `${pick(FOLDERS)}${pick(NAMES)}${pick([".md", ".md", ".png"])}`;
      const r = rand();
      if (r < 0.5) {
        live.apply({ kind: "create", path });
        truth.add(path);
      } else if (r < 0.75 && truth.size) {
        const gone = pick([...truth]);
        live.apply({ kind: "delete", path: gone });
        truth.delete(gone);
      } else if (truth.size && !truth.has(path)) {
        const from = pick([...truth]);
        live.apply({ kind: "rename", oldPath: from, path });
        truth.delete(from);
        truth.add(path);
      }
      if (step % 30 !== 29 || truth.size === 0) continue;
      const fresh = new VaultPathIndex();
      fresh.load(truth);
      const excluded = new Set([pick([...truth])]);
      for (const [index, ex] of [[live, new Set<string>()], [fresh, new Set<string>()], [live, excluded]] as const) {
        const r2 = recognizer(index, ex);
        for (const folder of FOLDERS) {
          for (const name of NAMES) {
            for (const ext of [".md", ".png", ""]) {
              const p = `${folder}${name}${ext}`;
              const stored = ext === "" ? `${p}.md` : p;
              const want = truth.has(stored) && !ex.has(stored) && !(ext === "" && /\.[A-Za-z0-9]{1,5}$/.test(name));
              expect(r2.accepts(JSON.stringify(p)), `${p} at step ${step}`).toBe(want);
            }
          }
        }
      }
    }
  });

  it("offers the nearest existing paths for a missing one", () => {
    const index = new VaultPathIndex();
    index.load(["Projects/Project Alpha.md", "Projects/Project Beta.md", "Inbox.md", "Archive/Alpha old.md"]);
    expect(index.nearest("Projects/Project Alfa.md", 2)).toEqual(["Projects/Project Alpha.md", "Projects/Project Beta.md"]);
    expect(index.resolve("Projects/Project Alpha")).toBe("Projects/Project Alpha.md");
    expect(index.resolve("Projects/Project Alfa")).toBeNull();
  });
});
