/**
 * Full-text index operations the engine host serves (src/core/memory/text-ops.ts), one TextIndex per index folder,
 * so minisearch's memory and garbage-collection pauses stay out of Obsidian's renderer. Every op takes `{folder}`:
 * the absolute folder where the index files live.
 */
import { createTextOps } from "../../core/memory/text-ops";
import { FolderIndexStore } from "./folder-index-store";

export const textOps = createTextOps((folder) => new FolderIndexStore(folder));
