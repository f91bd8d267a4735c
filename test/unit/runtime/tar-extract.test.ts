/**
 * Strict extraction against crafted archives: each attack is refused, nothing lands outside the target, and the
 * caller's cleanup leaves no trace. The archives are written byte by byte here, because the pack writer itself
 * refuses to produce them.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tarGz } from "../../../src/node/runtime-pack/tar-writer";
import { ExtractError, extractPack } from "../../../src/desktop/runtime/tar-extract";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "tar-extract-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** One raw ustar entry, with any name, type and link target. */
function entry(name: string, type: string, data = Buffer.alloc(0), linkname = ""): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, "utf8");
  h.write("0000644\0", 100);
  h.write("0000000\0", 108);
  h.write("0000000\0", 116);
  h.write(data.length.toString(8).padStart(11, "0") + "\0", 124);
  h.write("07346545000\0", 136);
  h.fill(0x20, 148, 156);
  h.write(type, 156);
  h.write(linkname, 157, 100, "utf8");
  h.write("ustar\0", 257);
  h.write("00", 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
  const pad = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([h, data, pad]);
}

function archive(...entries: Buffer[]): string {
  const file = join(dir, `crafted-${readdirSync(dir).length}.tar.gz`);
  writeFileSync(file, gzipSync(Buffer.concat([...entries, Buffer.alloc(1024)])));
  return file;
}

/** Extracts as the installer does (a fresh folder, removed on failure) and returns the error. */
async function refused(file: string): Promise<Error> {
  const target = join(dir, "root", "target");
  mkdirSync(join(dir, "root"), { recursive: true });
  const error = (await extractPack(file, target).catch((e: unknown) => e)) as Error;
  rmSync(target, { recursive: true, force: true });
  expect(error).toBeInstanceOf(ExtractError);
  // Nothing outside the target: the only thing the root ever held was the target itself.
  expect(readdirSync(join(dir, "root"))).toEqual([]);
  expect(existsSync(join(dir, "x"))).toBe(false);
  return error;
}

describe("strict pack extraction", () => {
  it("unpacks what the pack writer writes, files and folders with their bytes", async () => {
    const file = join(dir, "ok.tar.gz");
    writeFileSync(file, tarGz([{ path: "node_modules/a/index.js", data: Buffer.from("module.exports = 1;\n") }, { path: "runtime.json", data: Buffer.from("{}") }]));
    const result = await extractPack(file, join(dir, "out"));
    expect(result).toEqual({ files: 2, bytes: 22 });
    expect(readFileSync(join(dir, "out/node_modules/a/index.js"), "utf8")).toBe("module.exports = 1;\n");
  });

  it("refuses an entry that climbs out with ../", async () => {
    const error = await refused(archive(entry("ok.txt", "0", Buffer.from("fine")), entry("../../x", "0", Buffer.from("escaped"))));
    expect(error.message).toMatch(/climbs out of its folder/);
  });

  it("refuses an absolute path", async () => {
    const error = await refused(archive(entry(`${dir}/x`, "0", Buffer.from("escaped"))));
    expect(error.message).toMatch(/absolute path/);
  });

  it("refuses a Windows drive path and a backslash path", async () => {
    expect((await refused(archive(entry("C:/x", "0", Buffer.from("e"))))).message).toMatch(/absolute path/);
    expect((await refused(archive(entry("a\\..\\..\\x", "0", Buffer.from("e"))))).message).toMatch(/forbidden character/);
  });

  it("refuses a symbolic link", async () => {
    const error = await refused(archive(entry("link", "2", Buffer.alloc(0), "/etc/passwd"), entry("link/x", "0", Buffer.from("through the link"))));
    expect(error.message).toMatch(/symbolic link/);
  });

  it("refuses a hard link", async () => {
    const error = await refused(archive(entry("hard", "1", Buffer.alloc(0), "/etc/passwd")));
    expect(error.message).toMatch(/hard link/);
  });

  it("refuses other entry types (a pax header, a device)", async () => {
    expect((await refused(archive(entry("pax", "x", Buffer.from("30 path=../../x\n"))))).message).toMatch(/type "x"/);
    expect((await refused(archive(entry("dev", "3")))).message).toMatch(/type "3"/);
  });

  it("refuses a file over the per-file cap and an archive over the total cap", async () => {
    const big = archive(entry("big.bin", "0", Buffer.alloc(5000)));
    const target = join(dir, "capped");
    await expect(extractPack(big, target, { maxFileBytes: 4096 })).rejects.toThrow(/larger than/);
    rmSync(target, { recursive: true, force: true });
    const two = archive(entry("a.bin", "0", Buffer.alloc(3000)), entry("b.bin", "0", Buffer.alloc(3000)));
    await expect(extractPack(two, target, { maxTotalBytes: 5000 })).rejects.toThrow(/unpacks to more than/);
  });

  it("refuses a damaged header and an archive that ends mid-entry", async () => {
    const good = entry("a.txt", "0", Buffer.from("hello"));
    const bad = Buffer.from(good);
    bad[0] ^= 0x20; // name changed, checksum not
    expect((await refused(archive(bad))).message).toMatch(/checksum does not match/);
    const file = join(dir, "short.tar.gz");
    writeFileSync(file, gzipSync(entry("a.txt", "0", Buffer.alloc(2000)).subarray(0, 1024)));
    const target = join(dir, "short");
    await expect(extractPack(file, target)).rejects.toThrow(/ends in the middle of an entry/);
  });

  it("refuses the same path twice", async () => {
    const error = await refused(archive(entry("a.txt", "0", Buffer.from("1")), entry("a.txt", "0", Buffer.from("2"))));
    expect(error.message).toMatch(/twice/);
  });
});
