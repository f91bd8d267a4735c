import { describe, expect, it } from "vitest";
import { checkVaultPath, normalizeVaultPath } from "../../../src/core/gatekeeper/path-policy";

const policy = { configDir: ".obsidian", excludedFolders: ["Private", "Archive/Old"] };

describe("path policy", () => {
  it("normalizes slashes, dot segments and edge slashes", () => {
    expect(normalizeVaultPath(" Projects\\Alpha.md ")).toBe("Projects/Alpha.md");
    expect(normalizeVaultPath("Projects//./Alpha.md/")).toBe("Projects/Alpha.md");
    expect(checkVaultPath("./Inbox.md", policy)).toEqual({ ok: true, path: "Inbox.md" });
  });

  it("refuses a path that escapes the vault with ..", () => {
    const r = checkVaultPath("Projects/../../etc/passwd", policy);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/"\.\."/);
  });

  it("refuses absolute paths on every platform", () => {
    for (const p of ["/etc/passwd", "C:\\Users\\x.md", "\\\\server\\share", "~/notes.md", "file:///etc/passwd"]) {
      const r = checkVaultPath(p, policy);
      expect(r.ok, p).toBe(false);
      expect(!r.ok && r.reason).toMatch(/absolute|relative/);
    }
  });

  it("never allows the config folder, whatever its case", () => {
    expect(checkVaultPath(".obsidian/app.json", policy).ok).toBe(false);
    expect(checkVaultPath(".Obsidian/plugins/x/data.json", policy).ok).toBe(false);
    expect(checkVaultPath(".obsidian-notes/a.md", policy).ok).toBe(true);
  });

  it("honours excluded folders but not folders that merely share a prefix", () => {
    expect(checkVaultPath("Private/diary.md", policy).ok).toBe(false);
    expect(checkVaultPath("Archive/Old/a.md", policy).ok).toBe(false);
    expect(checkVaultPath("PrivateNotes/a.md", policy).ok).toBe(true);
    expect(checkVaultPath("Archive/New/a.md", policy).ok).toBe(true);
  });

  it("refuses NUL characters", () => {
    expect(checkVaultPath("a\0.md", policy).ok).toBe(false);
  });
});
