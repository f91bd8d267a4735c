/**
 * `edit` on the command line over a folder vault, with recorded replies: the proposal printed as a diff or JSON,
 * the chosen changes written byte for byte, the journal's undo taking them back, and a reply the edit grammar
 * refuses (a quote that is not in the note) never written.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cli = (...args: string[]) => spawnSync(process.execPath, ["--import", tsx, join(root, "src/node/cli.ts"), ...args], { encoding: "utf8", timeout: 240_000, cwd: root });

const NOTE = "# Garden\r\n\r\nThe tomatos are planted in bed one. They need water every day! Is the soil too dry?\r\n\r\n## Tasks\r\n- buy compost 🌱\r\n- weed the beans\r\n";
const REPLY = JSON.stringify({
  edits: [
    { find: "The tomatos are planted in bed one.", replace: "The tomatoes are planted in bed one." },
    { find: "Is the soil too dry?", replace: "Is the soil dry?" },
    { find: "- buy compost 🌱", replace: "- buy compost and mulch 🌱" },
  ],
});

function setup(reply = REPLY): { vault: string; replay: string } {
  const vault = mkdtempSync(join(tmpdir(), "edit-vault-"));
  writeFileSync(join(vault, "Garden.md"), NOTE);
  const replay = join(mkdtempSync(join(tmpdir(), "edit-replay-")), "r.jsonl");
  writeFileSync(replay, JSON.stringify({ reply }) + "\n");
  return { vault, replay };
}

describe("edit on the command line", () => {
  it("edit --replay … --apply 2 --json: three changes proposed, exactly the second written; undo --last restores the bytes", () => {
    const { vault, replay } = setup();
    const r = cli("edit", "--vault", vault, "--note", "Garden.md", "--replay", replay, "--apply", "2", "--json", "fix the typos");
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout.trim().split("\n").at(-1)!) as { changes: { id: number; deleted: string; insert: string; applied: boolean; line: number }[]; applied: number[]; changed: boolean };
    expect(out.changes.map((c) => [c.id, c.deleted, c.insert, c.applied, c.line])).toEqual([
      [1, "tomatos", "tomatoes", false, 3],
      [2, "too ", "", true, 3],
      [3, "", " and mulch", false, 6],
    ]);
    expect(out.applied).toEqual([2]);
    expect(readFileSync(join(vault, "Garden.md"), "utf8")).toBe(NOTE.replace("soil too dry", "soil dry"));
    const undo = cli("undo", "--vault", vault, "--last");
    expect(undo.status, undo.stderr).toBe(0);
    expect(readFileSync(join(vault, "Garden.md"), "utf8")).toBe(NOTE);
  });

  it("edit --replay … --apply 1 --json on a section: the change is written and nothing else", () => {
    const { vault, replay } = setup(JSON.stringify({ edits: [{ find: "- weed the beans", replace: "- weed the peas" }] }));
    const r = cli("edit", "--vault", vault, "--note", "Garden.md", "--heading", "Tasks", "--replay", replay, "--apply", "1", "--json", "peas, not beans");
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { applied: number[] }).applied).toEqual([1]);
    expect(readFileSync(join(vault, "Garden.md"), "utf8")).toBe(NOTE.replace("weed the beans", "weed the peas"));
  });

  it("prints the diff and writes nothing without --apply (the note stays byte-identical)", () => {
    const { vault, replay } = setup();
    const r = cli("edit", "--vault", vault, "--note", "Garden.md", "--replay", replay, "fix the typos");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("[1] line 3: The [-tomatos-]{+tomatoes+} are planted");
    expect(r.stdout).toContain("[3] line 6: - buy compost{+ and mulch+} 🌱");
    expect(readFileSync(join(vault, "Garden.md"), "utf8")).toBe(NOTE);
  });

  it("a recorded reply that quotes text the note does not have is refused by the edit grammar; nothing is written", () => {
    const { vault, replay } = setup(JSON.stringify({ edits: [{ find: "The potatoes are planted.", replace: "x" }] }));
    const r = cli("edit", "--vault", vault, "--note", "Garden.md", "--replay", replay, "--apply", "all", "fix it");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/grammar/);
    expect(readFileSync(join(vault, "Garden.md"), "utf8")).toBe(NOTE);
  });

  it("a change number the proposal does not have is one sentence, and nothing is written", () => {
    const { vault, replay } = setup();
    const r = cli("edit", "--vault", vault, "--note", "Garden.md", "--replay", replay, "--apply", "1,7", "fix it");
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe("There is no change 7: the proposal has 3.");
    expect(readFileSync(join(vault, "Garden.md"), "utf8")).toBe(NOTE);
  });
});
