import { describe, expect, it } from "vitest";
import MiniSearch from "minisearch";
import { radixTree } from "../../../src/core/memory/text-engine";
import { TimeSlices } from "../../../src/core/memory/yield";

/** A tree as nested plain objects with sorted keys: equal when minisearch would find the same terms the same way. */
function shape(node: Map<string, unknown>): unknown {
  return Object.fromEntries([...node].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, k === "" ? v : shape(v as Map<string, unknown>)]));
}

interface TermMap {
  set(term: string, value: number): void;
  get(term: string): number | undefined;
  atPrefix(prefix: string): { keys(): Iterable<string> };
  fuzzyGet(term: string, distance: number): Map<string, unknown>;
  _tree: Map<string, unknown>;
}
/** minisearch's SearchableMap (not exported): the class of an index's term map. */
const SearchableMap = (new MiniSearch({ fields: ["x"] }) as unknown as { _index: { constructor: new (tree?: Map<string, unknown>) => TermMap } })._index.constructor;

describe("radixTree", () => {
  it("builds the tree minisearch builds by inserting the terms one by one, prefixes of each other and CJK bigrams included", async () => {
    const terms = ["tag", "tags", "tagi", "template", "temp", "t", "note", "notes", "notiz", "标签", "标注", "笔记", "タグ", "태그", "a", "ab", "abc", "abd", "b"];
    const entries = new Map(terms.map((t, i) => [t, i]));
    const map = new SearchableMap();
    for (const [t, v] of entries) map.set(t, v);
    const tree = await radixTree(entries, new TimeSlices());
    expect(shape(tree)).toEqual(shape(map._tree));
    const built = new SearchableMap(tree);
    for (const [t, v] of entries) expect(built.get(t)).toBe(v);
    expect([...built.atPrefix("tag").keys()].sort()).toEqual(["tag", "tagi", "tags"]);
    expect(built.fuzzyGet("notez", 1).has("notes")).toBe(true);
  });
});
