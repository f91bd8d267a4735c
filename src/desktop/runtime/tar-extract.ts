import { nodeModule } from "../../engine/node-builtins";

const fs = nodeModule("fs");
const path = nodeModule("path");
const zlib = nodeModule("zlib");
/**
 * Strict extraction of a runtime pack (.tar.gz) into an empty folder. Only regular files and folders; every name is
 * relative, free of `..`, backslashes and drive letters, and lands inside the target; no symlinks, hard links,
 * devices or extension headers; per-file, total and count caps. Anything else stops the extraction and the caller
 * removes the half-written folder (the target is always a fresh staging folder).
 */

export interface ExtractLimits {
  /** Largest single file; default 512 MiB. */
  maxFileBytes?: number;
  /** Largest total of all files; default 2 GiB (CUDA packs are large). */
  maxTotalBytes?: number;
  /** Most entries; default 50,000. */
  maxEntries?: number;
}

export class ExtractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ExtractError";
  }
}

const BLOCK = 512;

function field(header: Buffer, offset: number, length: number): string {
  const raw = header.subarray(offset, offset + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end >= 0 ? end : length).toString("utf8");
}

function octal(header: Buffer, offset: number, length: number, what: string): number {
  const text = field(header, offset, length).trim();
  if (!/^[0-7]+$/.test(text)) throw new ExtractError(`The pack is damaged: an entry's ${what} is not a number.`);
  return parseInt(text, 8);
}

function checksumOk(header: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return octal(header, 148, 8, "checksum") === sum;
}

/** The entry's relative path, or an ExtractError naming why it is refused. */
export function safeEntryPath(name: string): string {
  const shown = JSON.stringify(name.slice(0, 200));
  if (name.includes("\0") || name.includes("\\")) throw new ExtractError(`The pack has an entry with a forbidden character in its name (${shown}); it was refused.`);
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) throw new ExtractError(`The pack has an entry with an absolute path (${shown}); it was refused.`);
  const parts = name.replace(/\/+$/, "").split("/");
  if (parts.some((p) => p === "..")) throw new ExtractError(`The pack has an entry that climbs out of its folder (${shown}); it was refused.`);
  if (parts.some((p) => p === "" || p === ".")) throw new ExtractError(`The pack has an entry with an empty or "." path segment (${shown}); it was refused.`);
  return parts.join("/");
}

/** Extracts `archive` into `target` (created, must not exist). Resolves with the files and bytes written. */
export async function extractPack(archive: string, target: string, limits: ExtractLimits = {}): Promise<{ files: number; bytes: number }> {
  const maxFile = limits.maxFileBytes ?? 512 * 1024 ** 2;
  const maxTotal = limits.maxTotalBytes ?? 2 * 1024 ** 3;
  const maxEntries = limits.maxEntries ?? 50_000;
  await fs.promises.mkdir(target, { recursive: false });
  const root = path.resolve(target);
  const seen = new Set<string>();
  let entries = 0;
  let files = 0;
  let total = 0;
  let ended = false;

  let buffer: Buffer = Buffer.alloc(0);
  /** The file being written: handle, bytes left, padding left after it. */
  let current: { handle: import("fs").promises.FileHandle; left: number; pad: number } | null = null;
  let skipPad = 0;

  const openEntry = async (header: Buffer) => {
    if (!checksumOk(header)) throw new ExtractError("The pack is damaged: an entry's header checksum does not match.");
    if (field(header, 257, 6) !== "ustar") throw new ExtractError("The pack is not a ustar archive; it was refused.");
    const type = String.fromCharCode(header[156] || 0x30);
    const prefix = field(header, 345, 155);
    const raw = prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100);
    if (type === "2") throw new ExtractError(`The pack has a symbolic link (${JSON.stringify(raw)}); packs may hold only files and folders.`);
    if (type === "1") throw new ExtractError(`The pack has a hard link (${JSON.stringify(raw)}); packs may hold only files and folders.`);
    if (type !== "0" && type !== "5") throw new ExtractError(`The pack has an entry of type "${type}" (${JSON.stringify(raw)}); packs may hold only files and folders.`);
    const rel = safeEntryPath(raw);
    const dest = path.resolve(root, ...rel.split("/"));
    if (dest !== root && !dest.startsWith(root + path.sep)) throw new ExtractError(`The pack has an entry outside its folder (${JSON.stringify(raw)}); it was refused.`);
    if (++entries > maxEntries) throw new ExtractError(`The pack has more than ${maxEntries} entries; it was refused.`);
    if (seen.has(rel)) throw new ExtractError(`The pack lists ${JSON.stringify(rel)} twice; it was refused.`);
    seen.add(rel);
    const size = octal(header, 124, 12, "size");
    if (type === "5") {
      if (size !== 0) throw new ExtractError(`The pack's folder entry ${JSON.stringify(rel)} has a size; it was refused.`);
      await fs.promises.mkdir(dest, { recursive: true });
      return;
    }
    if (size > maxFile) throw new ExtractError(`The pack's file ${rel} is larger than ${Math.round(maxFile / 1024 ** 2)} MB; it was refused.`);
    total += size;
    if (total > maxTotal) throw new ExtractError(`The pack unpacks to more than ${Math.round(maxTotal / 1024 ** 2)} MB; it was refused.`);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    const mode = octal(header, 100, 8, "mode") & 0o100 ? 0o755 : 0o644;
    // "wx": never write through something that is already there.
    const handle = await fs.promises.open(dest, "wx", mode);
    files++;
    current = { handle, left: size, pad: (BLOCK - (size % BLOCK)) % BLOCK };
    if (size === 0) await closeCurrent();
  };

  const closeCurrent = async () => {
    if (!current) return;
    const { handle, pad } = current;
    current = null;
    skipPad = pad;
    await handle.close();
  };

  const consume = async () => {
    for (;;) {
      if (ended) {
        buffer = Buffer.alloc(0);
        return;
      }
      if (current) {
        if (buffer.length === 0) return;
        const take = Math.min(current.left, buffer.length);
        await current.handle.write(buffer.subarray(0, take));
        current.left -= take;
        buffer = buffer.subarray(take);
        if (current.left === 0) await closeCurrent();
        continue;
      }
      if (skipPad > 0) {
        const take = Math.min(skipPad, buffer.length);
        skipPad -= take;
        buffer = buffer.subarray(take);
        if (skipPad > 0) return;
        continue;
      }
      if (buffer.length < BLOCK) return;
      const header = buffer.subarray(0, BLOCK);
      buffer = buffer.subarray(BLOCK);
      if (header.every((b) => b === 0)) {
        ended = true;
        continue;
      }
      await openEntry(Buffer.from(header));
    }
  };

  const input = fs.createReadStream(archive).pipe(zlib.createGunzip());
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      await consume();
    }
  } catch (error) {
    if (error instanceof ExtractError) throw error;
    throw new ExtractError(`The pack could not be unpacked (${error instanceof Error ? error.message : String(error)}).`);
  } finally {
    input.destroy();
    await (current as { handle: import("fs").promises.FileHandle } | null)?.handle.close().catch(() => undefined);
  }
  if (current || !ended) throw new ExtractError("The pack ends in the middle of an entry; it is damaged.");
  return { files, bytes: total };
}
