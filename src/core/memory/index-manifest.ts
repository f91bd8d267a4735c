/**
 * The memory index's manifest: per note, what was indexed (mtime, size, text hash, the vector ids of its chunks),
 * and the files left out. Vector ids are content hashes, so a moved note keeps its vectors. On disk it is packed
 * (a note entry is one small array) and written in slices, so a 10,000-note vault never blocks for long.
 */
import { TimeSlices, yieldToLoop } from "./yield";

/** Files left out, by reason. */
export interface SkipCounts {
  binary: number;
  huge: number;
  nonUtf8: number;
  excluded: number;
}

/** Per-note record of what was indexed. */
export interface NoteEntry {
  mtime: number;
  size: number;
  /** Hash of the whole text. */
  hash: string;
  /** Vector ids of its chunks, in order (see `vectorId`). */
  ids: string[];
}

export interface Manifest {
  version: number;
  modelKey: string | null;
  notes: Record<string, NoteEntry>;
  skipped: Record<string, keyof SkipCounts>;
  /** "mtime:size" of each file skipped for its content (binary, not UTF-8): unchanged, it is not read again. */
  skippedAt?: Record<string, string>;
}

export const MANIFEST_KEY = "memory-manifest.json";
/** Version 3: chunk ids are content hashes. Version 2 (ids from path and heading) is migrated on load. */
const MANIFEST_VERSION = 3;

/**
 * A chunk's id in the vector index: the hash of its embedded text, and "~k" for the k-th further note
 * holding exactly the same text (ids are unique; identical chunks are rare: same name, heading and text).
 */
export function vectorId(hash: string, k: number): string {
  return k === 0 ? hash : `${hash}~${k}`;
}

/** The content hash a vector id stands for. */
export function hashOfVectorId(id: string): string {
  const i = id.indexOf("~");
  return i < 0 ? id : id.slice(0, i);
}

/**
 * On disk a note entry is `[mtime, size, hash, "<id>,<id>,..."]`: a tenth of the objects to create, so a
 * 10,000-note manifest parses in a few milliseconds instead of tens.
 */
type StoredEntry = [number, number, string, string];

/**
 * Reads a manifest, in time slices (a 10,000-note one took one block of 70 ms), its text parsed in pieces too. Version 2 (chunks as packed path-based ids and content hashes) is migrated: its
 * chunks become their hashes (ids are assigned again by the next build, and stored vectors found by
 * hash are relabeled, not re-embedded). Other versions: null (rebuilt).
 */
export async function parseManifest(raw: string, slices = new TimeSlices()): Promise<Manifest | null> {
  const parsed = (await parseInPieces(raw, slices)) as { version?: number; modelKey?: string | null; skipped?: Manifest["skipped"]; skippedAt?: Manifest["skippedAt"]; notes?: Record<string, StoredEntry> };
  if ((parsed.version !== MANIFEST_VERSION && parsed.version !== 2) || !parsed.notes) return null;
  await slices.maybePause();
  const notes: Record<string, NoteEntry> = {};
  let n = 0;
  for (const [path, [mtime, size, hash, packed]] of Object.entries(parsed.notes)) {
    if ((++n & 127) === 0) await slices.maybePause();
    if (typeof packed !== "string") return null;
    let ids: string[];
    if (parsed.version === 2) {
      ids = [];
      for (let i = 0; i + 32 <= packed.length; i += 32) ids.push(packed.slice(i + 16, i + 32));
    } else ids = packed === "" ? [] : packed.split(",");
    notes[path] = { mtime, size, hash, ids };
  }
  return { version: MANIFEST_VERSION, modelKey: parsed.modelKey ?? null, skipped: parsed.skipped ?? {}, skippedAt: parsed.skippedAt ?? {}, notes };
}

const NOTES_KEY = ',"notes":{';
/** Characters of note entries parsed at once (about 2 ms of work). */
const PIECE = 64 * 1024;

/**
 * What `JSON.parse(raw)` gives, for the layout stringifyManifest writes parsed in pieces of about 64 KB with a pause
 * between (one parse of a 10,000-note manifest, 1.4 MB, held the thread 15-30 ms). An entry ends with `"],"` and
 * nothing else in that layout does (a quote inside a string is escaped); any other layout is parsed whole.
 */
async function parseInPieces(raw: string, slices: TimeSlices): Promise<unknown> {
  const at = raw.indexOf(NOTES_KEY);
  if (at < 0 || !raw.endsWith("}}")) return JSON.parse(raw);
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(`${raw.slice(0, at)}}`) as Record<string, unknown>;
    if (typeof parsed !== "object" || parsed === null || parsed.notes !== undefined) return JSON.parse(raw);
    const notes: Record<string, unknown> = {};
    const end = raw.length - 2;
    for (let from = at + NOTES_KEY.length; from < end; ) {
      await slices.maybePause();
      const next = raw.indexOf('"],"', from + PIECE);
      const to = next < 0 || next >= end ? end : next + 2;
      Object.assign(notes, JSON.parse(`{${raw.slice(from, to)}}`));
      from = to + 1;
    }
    parsed.notes = notes;
  } catch {
    return JSON.parse(raw);
  }
  return parsed;
}

/** JSON of the manifest, 1000 notes at a time with yields between, so a 10,000-note vault never blocks for long. */
export async function stringifyManifest(manifest: Manifest): Promise<string> {
  const entries = Object.entries(manifest.notes);
  const parts: string[] = [];
  for (let i = 0; i < entries.length; i += 1000) {
    parts.push(
      entries
        .slice(i, i + 1000)
        .map(([path, e]) => `${JSON.stringify(path)}:${JSON.stringify([e.mtime, e.size, e.hash, e.ids.join(",")])}`)
        .join(","),
    );
    await yieldToLoop();
  }
  const head = JSON.stringify({ version: manifest.version, modelKey: manifest.modelKey, skipped: manifest.skipped, skippedAt: manifest.skippedAt ?? {} });
  return `${head.slice(0, -1)},"notes":{${parts.join(",")}}}`;
}

export function emptyManifest(modelKey: string | null): Manifest {
  return { version: MANIFEST_VERSION, modelKey, notes: {}, skipped: {} };
}
