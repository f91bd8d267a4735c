/**
 * The flat vector index persisted through Obsidian's vault adapter (AdapterVectorFiles, what mobile uses), against
 * the fake obsidian module's DataAdapter: a round trip through the store, a truncated file refused with a sentence
 * and moved aside, and a replace that leaves one whole index on disk whichever step fails.
 */
import { describe, expect, it } from "vitest";
import { DataAdapter, MemoryBackend } from "../../fakes/vault";
import { AdapterVectorFiles, type BinaryAdapter } from "../../../src/plugin/mobile/adapter-vector-files";
import { FLAT_CHANGES_FILE, FLAT_FILE, FlatVectorStore } from "../../../src/engine/vector/flat-store";
import { contractItem as item } from "../../contract/vector-store-contract";

const FOLDER = ".obsidian/plugins/vault-agent/index/vectors";
const FILE = `${FOLDER}/${FLAT_FILE}`;

/** Deterministic vectors (a linear congruential generator). */
function vectors(n: number, dim: number, seed = 11): number[][] {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  return Array.from({ length: n }, () => Array.from({ length: dim }, next));
}

/** The fake adapter, with a hook that can make one call fail (a crash at that step). */
function adapter(): { backend: MemoryBackend; adapter: BinaryAdapter; failOn: (fn: ((op: string, path: string) => boolean) | null) => void } {
  const backend = new MemoryBackend();
  const real = new DataAdapter(backend);
  let fail: ((op: string, path: string) => boolean) | null = null;
  const guard = (op: string, path: string) => {
    if (fail?.(op, path)) throw new Error(`simulated crash at ${op} ${path}`);
  };
  const wrapped: BinaryAdapter = {
    exists: (p) => real.exists(p),
    readBinary: (p) => real.readBinary(p),
    writeBinary: async (p, d) => (guard("writeBinary", p), real.writeBinary(p, d)),
    rename: async (f, t) => (guard("rename", `${f} -> ${t}`), real.rename(f, t)),
    remove: async (p) => (guard("remove", p), real.remove(p)),
    mkdir: (p) => real.mkdir(p),
  };
  return { backend, adapter: wrapped, failOn: (fn) => (fail = fn) };
}

const filesIn = (backend: MemoryBackend) => backend.listDir(FOLDER).files.sort();
const bytes = (...values: number[]) => new Uint8Array(values);

describe("AdapterVectorFiles", () => {
  it("round-trips the flat index through the vault adapter into a folder it creates, leaving only the index file", async () => {
    const { backend, adapter: a } = adapter();
    const data = vectors(300, 32);
    const writer = new FlatVectorStore(new AdapterVectorFiles(a, () => `${FOLDER}/`), { precision: "int8" });
    await writer.upsert(data.map((v, i) => item(`n${i}`, v, `Notes/${i % 7}/${i}.md`)));
    await writer.flush();
    // A second save writes the change file beside it (the adapter cannot rename over a file: no copy is left behind).
    await writer.delete(["n299"]);
    await writer.close();
    expect(filesIn(backend)).toEqual([FILE, `${FOLDER}/${FLAT_CHANGES_FILE}`]);
    const reader = new FlatVectorStore(new AdapterVectorFiles(a, () => FOLDER));
    expect(await reader.open()).toEqual({ items: 299, dimension: 32, notices: [] });
    const hits = await reader.query(data[42], 3, { folder: { $in: ["Notes/0"] } });
    expect(hits[0]).toMatchObject({ id: "n42", metadata: { path: "Notes/0/42.md", folder: "Notes/0", hash: "h-n42" } });
    expect(hits[0].score).toBeGreaterThan(0.99);
    expect((await reader.listIds()).some((x) => x.id === "n299")).toBe(false);
  });

  it("refuses a truncated file with one sentence, moves it aside through the adapter and starts empty", async () => {
    const { backend, adapter: a } = adapter();
    const writer = new FlatVectorStore(new AdapterVectorFiles(a, () => FOLDER));
    await writer.upsert(vectors(20, 8).map((v, i) => item(`n${i}`, v, `N/${i}.md`)));
    await writer.close();
    const whole = backend.readBytes(FILE);
    backend.writeBytes(FILE, whole.subarray(0, whole.length - 9));
    const notices: string[] = [];
    const reader = new FlatVectorStore(new AdapterVectorFiles(a, () => FOLDER), { now: () => 1234, onNotice: (m) => notices.push(m) });
    const opened = await reader.open();
    const sentence = `The semantic index was unreadable (the vector index file is truncated), so it was moved aside to ${FLAT_FILE}.corrupt-1234 and is being rebuilt.`;
    expect(opened).toEqual({ items: 0, dimension: undefined, notices: [sentence] });
    expect(notices).toEqual([sentence]);
    expect(filesIn(backend)).toEqual([`${FILE}.corrupt-1234`]);
    expect(backend.readBytes(`${FILE}.corrupt-1234`)).toEqual(whole.subarray(0, whole.length - 9));
  });

  it("keeps the previous file whole when writing the new one fails", async () => {
    const { backend, adapter: a, failOn } = adapter();
    const files = new AdapterVectorFiles(a, () => FOLDER);
    await files.write(FLAT_FILE, bytes(1, 2, 3));
    failOn((op) => op === "writeBinary");
    await expect(files.write(FLAT_FILE, bytes(9, 9, 9, 9))).rejects.toThrow(/simulated crash/);
    failOn(null);
    expect(await files.read(FLAT_FILE)).toEqual(bytes(1, 2, 3));
    expect(backend.exists(FILE)).toBe(true);
  });

  it("reads the previous file when a replace stops after moving it aside, and the next write completes the swap", async () => {
    const { backend, adapter: a, failOn } = adapter();
    const files = new AdapterVectorFiles(a, () => FOLDER);
    await files.write(FLAT_FILE, bytes(1, 2, 3));
    failOn((op, path) => op === "rename" && path.startsWith(`${FILE}.tmp`));
    await expect(files.write(FLAT_FILE, bytes(4, 5, 6, 7))).rejects.toThrow(/simulated crash/);
    failOn(null);
    expect(backend.exists(FILE)).toBe(false);
    expect(await files.read(FLAT_FILE)).toEqual(bytes(1, 2, 3));
    await files.write(FLAT_FILE, bytes(8));
    expect(await files.read(FLAT_FILE)).toEqual(bytes(8));
    expect(filesIn(backend)).toEqual([FILE]);
  });

  it("reads nothing when no index was ever written, and refuses a name that leaves the folder", async () => {
    const { adapter: a } = adapter();
    const files = new AdapterVectorFiles(a, () => FOLDER);
    expect(await files.read(FLAT_FILE)).toBeNull();
    await expect(files.write("../escape.flat", bytes(1))).rejects.toThrow('Vector file name "../escape.flat" must be a plain file name.');
  });
});
