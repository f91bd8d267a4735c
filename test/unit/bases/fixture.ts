/**
 * A small vault for the Bases tests, as plain JS objects (the reference evaluations read these) and written to a
 * temporary folder behind a FolderVault (the evaluator reads that).
 */
import { mkdtemp, mkdir, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";

export interface FixtureNote {
  path: string;
  /** Frontmatter; undefined for a file that is not a note or has none. */
  fm?: Record<string, unknown>;
  body: string;
  /** Days before NOW of the last change. */
  ageDays: number;
}

/** The clock of every query: 10 February 2026, 12:00 local time. */
export const NOW = new Date(2026, 1, 10, 12, 0, 0);

export const NOTES: FixtureNote[] = [
  { path: "Projects/Atlas.md", ageDays: 2, body: "Kickoff with [[Beacon]]. #urgent", fm: { status: "active", owner: "[[Priya]]", budget: 4000, hours: 12, start: "2026-01-10", due: "2026-03-01", tags: ["project", "client/acme"], price: 19.99, quantity: 3, rating: 4, title: "Atlas & Co", reviewers: ["[[Priya]]", "[[Tom Reyes]]"] } },
  { path: "Projects/Beacon.md", ageDays: 30, body: "See [[Atlas]].", fm: { status: "active", owner: "[[Tom Reyes]]", budget: 2500, hours: 7.5, start: "2026-02-01", due: "2026-06-30", tags: ["project"], price: 5, quantity: 10, rating: 3, title: "beacon relaunch" } },
  { path: "Projects/Cobalt.md", ageDays: 30, body: "Old CRM. #archive", fm: { status: "done", owner: "[[Priya]]", budget: 6000, hours: 20, start: "2025-11-03", due: "2026-01-15", tags: ["project", "client/globex"], rating: 5, reviewers: ["[[Priya]]"], title: "  Cobalt migration  " } },
  { path: "Projects/Dune.md", ageDays: 30, body: "Paused.", fm: { status: "paused", owner: "[[Tom Reyes]]", budget: 1000, hours: 3, due: "2026-02-20", tags: [], title: "Dune" } },
  { path: "Projects/Archive/Eden.md", ageDays: 400, body: "", fm: { status: "done", owner: "[[Priya]]", budget: 500, hours: 1, start: "2024-05-05 14:00", due: "2025-01-01", tags: ["project"], rating: 2 } },
  { path: "People/Priya.md", ageDays: 30, body: "Works on [[Atlas]] and [[Cobalt]].", fm: { role: "lead", tags: ["person"], email: "priya@example.com" } },
  { path: "People/Tom Reyes.md", ageDays: 30, body: "Designer.", fm: { role: "designer", tags: ["person"] } },
  { path: "Books/Dune (novel).md", ageDays: 30, body: "Spice. #favorite", fm: { author: "Frank Herbert", rating: 5, pages: 612, read: true, genres: ["sci-fi", "classic"], finished: "2025-08-14", tags: ["book"] } },
  { path: "Books/Emma.md", ageDays: 30, body: "", fm: { author: "Jane Austen", rating: 4, pages: 474, read: false, genres: ["classic", "romance"], tags: ["book"] } },
  { path: "Inbox.md", ageDays: 1, body: "Call [[Priya]] about #urgent stuff." },
  { path: "Assets/diagram.png", ageDays: 30, body: "PNG" },
  { path: "Boards/Plan.canvas", ageDays: 30, body: "{}" },
];

/** Writes the fixture to a new folder; returns its root and a FolderVault over it. */
export async function writeFixture(): Promise<{ root: string; vault: FolderVault }> {
  const root = await mkdtemp(join(tmpdir(), "bases-"));
  for (const n of NOTES) {
    const file = join(root, n.path);
    await mkdir(dirname(file), { recursive: true });
    const fm = n.fm ? `---\n${Object.entries(n.fm).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join("\n")}\n---\n` : "";
    await writeFile(file, `${fm}${n.body}\n`);
    const t = new Date(NOW.getTime() - n.ageDays * 864e5);
    await utimes(file, t, t);
  }
  return { root, vault: new FolderVault(root, { watch: false }) };
}
