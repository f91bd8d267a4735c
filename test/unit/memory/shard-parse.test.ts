import { describe, expect, it } from "vitest";
import { parseShard, stringifyShard } from "../../../src/core/memory/shard-parse";
import { TimeSlices } from "../../../src/core/memory/yield";

const head = { v: 3, fields: ["title", "body"], docs: ["a.md", "b.md"], hashes: ["x", "y"], len: [1, 2, 3, 4], terms: ["t"] };
const slices = () => new TimeSlices(1e9);

describe("parseShard", () => {
  it("reads the postings into 32-bit integers, the same numbers JSON.parse reads, across pieces", async () => {
    // Long enough to be read in several pieces of 64 KB.
    const post = Array.from({ length: 60_000 }, (_, i) => (i * 7919) % 100_003);
    const text = await stringifyShard({ ...head, post: [post.slice(0, 30_000), post.slice(30_000)] }, slices());
    const parsed = await parseShard(text, slices());
    expect(parsed.post).toBeInstanceOf(Int32Array);
    expect([...parsed.post]).toEqual((JSON.parse(text) as { post: number[] }).post);
    expect({ ...parsed, post: null }).toEqual({ ...head, post: null });
  });

  it("reads numbers that are not small whole ones (a fraction, a sign, ten digits) as JSON does", async () => {
    for (const odd of ["1.5", "-2", "12345678901", "1e3"]) {
      const text = `${JSON.stringify(head).slice(0, -1)},"post":[1,2,${odd},4]}`;
      expect((await parseShard(text, slices())).post).toEqual(JSON.parse(text).post);
    }
  });

  it("reads an empty list of postings", async () => {
    const text = await stringifyShard({ ...head, post: [[]] }, slices());
    expect([...(await parseShard(text, slices())).post]).toEqual([]);
  });
});
