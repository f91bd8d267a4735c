import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { changedPaths, checkAnswer, checkVault, outsideScope, snapshotFolder } from "../../../src/node/eval/tasks/checks";
import { defaultSuiteDir, inScope, loadTasks, taskScope } from "../../../src/node/eval/tasks/task-file";

const fixture = join(defaultSuiteDir(), "fixtures", "studio-en");
const dirs: string[] = [];
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), "checks-"));
  dirs.push(dir);
  cpSync(fixture, dir, { recursive: true });
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("answer checks", () => {
  it("each literal check passes on a right answer and fails on a wrong one", () => {
    expect(checkAnswer({ contains: "Lantern-42" }, "The password is lantern-42.").status).toBe("pass");
    expect(checkAnswer({ contains: "lantern-42" }, "The password is lantern-43.").status).toBe("fail");
    expect(checkAnswer({ contains: "lantern-42" }, null)).toMatchObject({ status: "fail", detail: "there was no answer" });
    expect(checkAnswer({ any_of: ["10000", "10,000"] }, "10,000 in all").status).toBe("pass");
    expect(checkAnswer({ any_of: ["10000", "10,000"] }, "about 9,000").status).toBe("fail");
    expect(checkAnswer({ regex: "(^|[^0-9.])42[.,]5([^0-9]|$)" }, "42.5 hours").status).toBe("pass");
    expect(checkAnswer({ regex: "(^|[^0-9.])42[.,]5([^0-9]|$)" }, "142.5 hours").status).toBe("fail");
    expect(checkAnswer({ lacks: "April 14" }, "It is on April 21.").status).toBe("pass");
    expect(checkAnswer({ lacks: "April 14" }, "It is on April 14.").status).toBe("fail");
  });
});

describe("vault checks", () => {
  it("an untouched copy passes every kind of check that describes the fixture", () => {
    const vault = copy();
    const checks = [
      { exists: "Inbox.md" },
      { absent: "Archive/Dune.md" },
      { unchanged: "Inbox.md" },
      { path: "Inbox.md", contains: "recieve" },
      { path: "Inbox.md", lacks: "receive the" },
      { path: "Inbox.md", matches: "^- Book the meeting room for Thursday$" },
      { path: "Projects/Atlas.md", frontmatter: { status: "active", hours: 12, end: "2026-02-28" } },
    ];
    for (const check of checks) expect(checkVault(check, vault, fixture), JSON.stringify(check)).toMatchObject({ status: "pass" });
  });

  it("a wrongly edited file fails the checks that guard it", () => {
    const vault = copy();
    // The typo fixed, but a neighbouring line damaged on the way: the surgical-edit check must catch it.
    writeFileSync(join(vault, "Inbox.md"), readFileSync(join(vault, "Inbox.md"), "utf8").replace("recieve", "receive").replace("Thursday", "Friday"));
    expect(checkVault({ unchanged: "Inbox.md" }, vault, fixture)).toMatchObject({ status: "fail", detail: "its bytes changed" });
    expect(checkVault({ path: "Inbox.md", contains: "- Book the meeting room for Thursday\n" }, vault, fixture).status).toBe("fail");
    expect(checkVault({ path: "Inbox.md", lacks: "receive" }, vault, fixture).status).toBe("fail");
    expect(checkVault({ path: "Inbox.md", matches: "^- Book the meeting room for Thursday$" }, vault, fixture).status).toBe("fail");
  });

  it("frontmatter equality is typed: the number 12 is not the text \"12\"", () => {
    const vault = copy();
    const atlas = join(vault, "Projects/Atlas.md");
    writeFileSync(atlas, readFileSync(atlas, "utf8").replace("hours: 12", 'hours: "12"').replace("status: active", "status: archived"));
    const r = checkVault({ path: "Projects/Atlas.md", frontmatter: { status: "archived", hours: 12 } }, vault, fixture);
    expect(r.status).toBe("fail");
    expect(r.detail).toBe('hours is "12"');
    expect(checkVault({ path: "Projects/Atlas.md", frontmatter: { status: "archived", hours: "12" } }, vault, fixture).status).toBe("pass");
    expect(checkVault({ path: "Projects/Atlas.md", frontmatter: { missing: "x" } }, vault, fixture)).toMatchObject({ status: "fail", detail: "missing is missing" });
  });

  it("exists, absent and unchanged fail after a move or a delete", () => {
    const vault = copy();
    rmSync(join(vault, "Notes/Old draft.md"));
    expect(checkVault({ exists: "Notes/Old draft.md" }, vault, fixture).status).toBe("fail");
    expect(checkVault({ unchanged: "Notes/Old draft.md" }, vault, fixture)).toMatchObject({ status: "fail", detail: "it is gone" });
    expect(checkVault({ absent: "Inbox.md" }, vault, fixture).status).toBe("fail");
    expect(checkVault({ path: "Notes/Old draft.md", contains: "x" }, vault, fixture)).toMatchObject({ status: "fail", detail: "the note does not exist" });
  });

  it("a change outside the task's scope is named; one inside is not", () => {
    const vault = copy();
    writeFileSync(join(vault, "Office.md"), "noise");
    writeFileSync(join(vault, "Inbox.md"), "edited");
    writeFileSync(join(vault, "New.md"), "created");
    const changed = changedPaths(snapshotFolder(fixture), snapshotFolder(vault));
    expect(changed).toEqual(["Inbox.md", "New.md", "Office.md"]);
    expect(outsideScope(changed, ["Inbox.md"])).toEqual(["New.md", "Office.md"]);
    expect(inScope("Archive/Dune.md", ["Archive/"])).toBe(true);
    expect(inScope("Archived.md", ["Archive/"])).toBe(false);
  });
});

describe("the suite", () => {
  it("has at least 60 valid tasks in at least 5 languages over every tier and category, and every changing task guards its neighbours", () => {
    const tasks = loadTasks();
    expect(tasks.length).toBeGreaterThanOrEqual(60);
    expect(new Set(tasks.map((t) => t.language)).size).toBeGreaterThanOrEqual(5);
    expect(new Set(tasks.map((t) => t.tier))).toEqual(new Set(["T1", "T2", "T3", "T4"]));
    expect(new Set(tasks.map((t) => t.category)).size).toBe(13);
    for (const t of tasks.filter((t) => ["write", "edit", "move", "delete"].includes(t.category))) {
      expect(t.vault.some((c) => "unchanged" in c), t.id).toBe(true);
      expect(taskScope(t).length, t.id).toBeGreaterThan(0);
    }
    expect(tasks.filter((t) => t.confirm === "deny").length).toBeGreaterThan(0);
    expect(tasks.filter((t) => t.context.length > 0 && t.max_tool_calls === 0).length).toBeGreaterThan(0);
  });
});
