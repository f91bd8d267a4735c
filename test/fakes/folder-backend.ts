/** The fake vault's files in a real folder on disk (vitest only: uses node:fs). */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FileStats, VaultBackend } from "./vault";
import { tick } from "./vault";

export class FolderBackend implements VaultBackend {
  constructor(readonly basePath: string) {
    fs.mkdirSync(basePath, { recursive: true });
  }

  private abs(p: string): string {
    return path.join(this.basePath, p);
  }

  scan() {
    const files: (FileStats & { path: string })[] = [];
    const folders: string[] = [];
    const walk = (rel: string) => {
      for (const entry of fs.readdirSync(this.abs(rel), { withFileTypes: true })) {
        const child = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) {
          folders.push(child);
          walk(child);
        } else {
          const st = fs.statSync(this.abs(child));
          files.push({ path: child, ctime: st.birthtimeMs || st.ctimeMs, mtime: st.mtimeMs, size: st.size });
        }
      }
    };
    walk("");
    return { files, folders };
  }
  exists(p: string): boolean {
    return fs.existsSync(this.abs(p));
  }
  read(p: string): string {
    return fs.readFileSync(this.abs(p), "utf8");
  }
  write(p: string, text: string): FileStats {
    const existed = fs.existsSync(this.abs(p));
    const ctime = existed ? fs.statSync(this.abs(p)).birthtimeMs : undefined;
    fs.writeFileSync(this.abs(p), text);
    const mtime = tick();
    const st = fs.statSync(this.abs(p));
    return { ctime: ctime ?? mtime, mtime, size: st.size };
  }
  readBytes(p: string): Uint8Array {
    return new Uint8Array(fs.readFileSync(this.abs(p)));
  }
  writeBytes(p: string, bytes: Uint8Array): FileStats {
    fs.writeFileSync(this.abs(p), bytes);
    const st = fs.statSync(this.abs(p));
    return { ctime: st.birthtimeMs || st.ctimeMs, mtime: tick(), size: st.size };
  }
  mkdir(p: string): void {
    fs.mkdirSync(this.abs(p), { recursive: true });
  }
  remove(p: string): void {
    fs.rmSync(this.abs(p), { recursive: true, force: true });
  }
  rename(from: string, to: string): void {
    fs.renameSync(this.abs(from), this.abs(to));
  }
  listDir(p: string) {
    const rel = p === "/" ? "" : p;
    const files: string[] = [];
    const folders: string[] = [];
    if (!fs.existsSync(this.abs(rel))) return { files, folders };
    for (const entry of fs.readdirSync(this.abs(rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      (entry.isDirectory() ? folders : files).push(child);
    }
    return { files, folders };
  }
}
