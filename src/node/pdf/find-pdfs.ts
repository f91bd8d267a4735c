/**
 * Real PDFs on this machine for the PDF text benchmark: Debian's documentation packages ship many under
 * /usr/share/doc (some gzipped, which are unpacked to a temporary folder). Each file once (symlinks and hard
 * copies with the same bytes count once), sorted by path.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";

/** Where Debian puts documentation PDFs. */
export const DEFAULT_PDF_ROOTS = ["/usr/share/doc", "/usr/share/R/doc"];

/** Paths of real, distinct PDFs under `roots` (gzipped ones unpacked into `unpackDir`), at most `limit`. */
export function findPdfs(roots: string[], unpackDir: string, limit = Infinity): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 8) return;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = join(dir, e.name);
      if (e.isDirectory()) walk(full, depth + 1);
      else if (/\.pdf(\.gz)?$/i.test(e.name)) found.push(full);
    }
  };
  for (const root of roots) if (existsSync(root)) walk(root, 0);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const file of found.sort()) {
    let path: string;
    let bytes: Buffer;
    try {
      path = realpathSync(file);
      if (statSync(path).size < 1024) continue;
      bytes = readFileSync(path);
      if (path.endsWith(".gz")) bytes = gunzipSync(bytes);
    } catch {
      continue;
    }
    if (bytes.subarray(0, 5).toString("latin1") !== "%PDF-") continue;
    const hash = createHash("sha256").update(bytes).digest("hex");
    if (seen.has(hash)) continue;
    seen.add(hash);
    if (path.endsWith(".gz")) {
      mkdirSync(unpackDir, { recursive: true });
      const target = join(unpackDir, `${hash.slice(0, 8)}-${basename(path, ".gz")}`);
      writeFileSync(target, bytes);
      path = target;
    }
    out.push(path);
    if (out.length >= limit) break;
  }
  return out;
}
