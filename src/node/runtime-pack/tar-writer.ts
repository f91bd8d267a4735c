/**
 * A deterministic tar.gz: POSIX ustar entries in sorted order with a fixed mtime, owner and mode, compressed by
 * fflate (pure JavaScript, so every machine and Node version writes the same bytes; Node's bundled zlib does not
 * promise that) with no timestamp in the gzip header. Same files in, same sha256 out.
 */
import { gzipSync } from "fflate";

export interface TarFile {
  /** Forward-slash path inside the archive, no leading slash. */
  path: string;
  data: Uint8Array;
  /** Marks the file executable (mode 0755 instead of 0644). */
  executable?: boolean;
}

/** 2000-01-01T00:00:00Z: a fixed, non-zero mtime (some tools treat 0 as "unknown"). */
export const FIXED_MTIME = 946_684_800;
const BLOCK = 512;

function writeString(header: Uint8Array, offset: number, length: number, value: string): void {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length > length) throw new Error(`"${value}" is too long for a tar header field of ${length} bytes.`);
  header.set(bytes, offset);
}

function writeOctal(header: Uint8Array, offset: number, length: number, value: number): void {
  writeString(header, offset, length, value.toString(8).padStart(length - 1, "0") + "\0");
}

/** ustar keeps names up to 100 bytes, or a prefix of up to 155 bytes split at a slash. */
function splitName(path: string): { name: string; prefix: string } {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: "" };
  for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  throw new Error(`${path} is too long for a ustar archive.`);
}

function header(path: string, type: "0" | "5", size: number, mode: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const { name, prefix } = splitName(path);
  writeString(h, 0, 100, name);
  writeOctal(h, 100, 8, mode);
  writeOctal(h, 108, 8, 0); // uid
  writeOctal(h, 116, 8, 0); // gid
  writeOctal(h, 124, 12, size);
  writeOctal(h, 136, 12, FIXED_MTIME);
  h.fill(0x20, 148, 156); // checksum field counts as spaces while summing
  writeString(h, 156, 1, type);
  writeString(h, 257, 6, "ustar\0");
  writeString(h, 263, 2, "00");
  writeString(h, 265, 32, "root");
  writeString(h, 297, 32, "root");
  writeString(h, 345, 155, prefix);
  let sum = 0;
  for (const byte of h) sum += byte;
  writeString(h, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return h;
}

/** The uncompressed tar: folders (implied by the files) and files, all sorted by path. */
export function tarBytes(files: TarFile[]): Uint8Array {
  const byPath = new Map<string, TarFile>();
  for (const f of files) {
    if (!f.path || f.path.startsWith("/") || f.path.split("/").some((part) => part === "" || part === "." || part === "..")) {
      throw new Error(`${f.path} is not a clean relative path for the archive.`);
    }
    if (byPath.has(f.path)) throw new Error(`${f.path} is in the archive twice.`);
    byPath.set(f.path, f);
  }
  const folders = new Set<string>();
  for (const path of byPath.keys()) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join("/"));
  }
  const entries = [...[...folders].map((p) => ({ path: `${p}/`, folder: true })), ...[...byPath.keys()].map((p) => ({ path: p, folder: false }))];
  // Byte order, not locale order: the same on every machine.
  entries.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (const entry of entries) {
    if (entry.folder) {
      chunks.push(header(entry.path, "5", 0, 0o755));
      total += BLOCK;
      continue;
    }
    const file = byPath.get(entry.path)!;
    chunks.push(header(entry.path, "0", file.data.length, file.executable ? 0o755 : 0o644));
    chunks.push(file.data);
    const pad = (BLOCK - (file.data.length % BLOCK)) % BLOCK;
    if (pad) chunks.push(new Uint8Array(pad));
    total += BLOCK + file.data.length + pad;
  }
  chunks.push(new Uint8Array(BLOCK * 2)); // end of archive
  total += BLOCK * 2;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/** The compressed archive. */
export function tarGz(files: TarFile[]): Uint8Array {
  return gzipSync(tarBytes(files), { level: 9, mem: 12, mtime: 0 });
}
