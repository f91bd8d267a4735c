import { spawn, spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ChangeJournal } from "../../../src/core/journal";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { defaultJournalDir, FolderJournalStore } from "../../../src/node/folder-journal-store";
import { vaultHash } from "../../unit/journal/journal-harness";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cli = (...args: string[]) => spawnSync(process.execPath, ["--import", tsx, join(root, "src/node/cli.ts"), ...args], { encoding: "utf8", timeout: 240_000, cwd: root });

async function copyVault(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "undo-cli-"));
  await cp(join(root, "examples/vault"), dir, { recursive: true });
  return dir;
}

/** Runs the endless journaled turn in a child process and SIGKILLs it once `calls` calls finished. */
async function crashMidTurn(vault: string, calls: number): Promise<void> {
  const child = spawn(process.execPath, ["--import", tsx, join(root, "test/integration/journal/crash-turn-child.ts"), vault], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    let seen = 0;
    child.stdout.on("data", (d: Buffer) => {
      seen += d.toString().split("\n").filter(Boolean).length;
      if (seen >= calls) child.kill("SIGKILL");
    });
    child.on("exit", (_code, signal) => (signal === "SIGKILL" ? resolve() : reject(new Error(`the child ended on its own: ${stderr}`))));
  });
}

describe("undo CLI", () => {
  it("lists journaled turns, undoes the last one exactly, and says so", async () => {
    const dir = await copyVault();
    const before = await vaultHash(dir);
    const vault = new FolderVault(dir, { watch: false });
    const journal = new ChangeJournal(new FolderJournalStore(defaultJournalDir(dir)));
    await journal.vaultFor(vault, { turnId: "tone", callId: "r1c0", tool: "vault:write" }).create("Agent note.md", "from the agent");
    const mid = await vaultHash(dir);
    await journal.vaultFor(vault, { turnId: "ttwo", callId: "r1c0", tool: "vault:move" }).move("Ideas.md", "Archive/Ideas.md");

    const list = cli("undo", "--vault", dir, "--list");
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout.split("\n")[0]).toMatch(/ttwo: moved Ideas\.md to Archive\/Ideas\.md$/);
    expect(list.stdout).toMatch(/tone: created Agent note\.md/);

    const last = cli("undo", "--vault", dir, "--last");
    expect(last.status, last.stderr).toBe(0);
    expect(last.stdout).toContain("Moved Archive/Ideas.md back to Ideas.md");
    expect(await vaultHash(dir)).toBe(mid);
    const one = cli("undo", "--vault", dir, "--turn", "tone");
    expect(one.status, one.stderr).toBe(0);
    expect(await vaultHash(dir)).toBe(before);
    expect(cli("undo", "--vault", dir, "--list").stdout).toContain("Nothing to undo");
  });

  it("refuses with one sentence to overwrite a note changed since, and overwrites with --force", async () => {
    const dir = await copyVault();
    const vault = new FolderVault(dir, { watch: false });
    const journal = new ChangeJournal(new FolderJournalStore(defaultJournalDir(dir)));
    const original = await vault.read("Inbox.md");
    await journal.vaultFor(vault, { turnId: "tedit", callId: "r1c0", tool: "vault:append" }).process("Inbox.md", (t) => `${t}\n- agent`);
    await writeFile(join(dir, "Inbox.md"), "my rewrite");
    const refused = cli("undo", "--vault", dir, "--last");
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/"Inbox\.md" changed after the agent's change .* Rerun with --force/);
    expect(await readFile(join(dir, "Inbox.md"), "utf8")).toBe("my rewrite");
    const forced = cli("undo", "--vault", dir, "--last", "--force");
    expect(forced.status, forced.stderr).toBe(0);
    expect(await readFile(join(dir, "Inbox.md"), "utf8")).toBe(original);
  });

  it("answers bad usage with one sentence and exit 2", () => {
    const none = cli("undo", "--vault", join(tmpdir(), "no-such-vault-folder"), "--last");
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^The vault folder ".*" does not exist\.\n/);
    const both = cli("undo", "--vault", root, "--last", "--list");
    expect(both.status).toBe(2);
    expect(both.stderr).toMatch(/^Say what to undo/);
    const unknown = cli("undo", "--vault", root, "--turn", "tnothere");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/No journaled turn "tnothere"/);
  });

  it("undoes every change that reached the disk after the turn's process was killed mid-turn", async () => {
    const dir = await copyVault();
    const before = await vaultHash(dir);
    await crashMidTurn(dir, 12);
    expect(await vaultHash(dir)).not.toBe(before);
    const r = cli("undo", "--vault", dir, "--last");
    expect(r.status, r.stderr).toBe(0);
    expect(await vaultHash(dir)).toBe(before);
  }, 120_000);

  it("still undoes the turn when the record after its newest change was cut short and a temp file was left behind", async () => {
    const dir = await copyVault();
    const before = await vaultHash(dir);
    await crashMidTurn(dir, 6);
    const jdir = defaultJournalDir(dir);
    // What a crash while writing the record after a change could leave if writes were not atomic: the change is on disk.
    const newest = (await readdir(jdir)).filter((f) => f.endsWith("-b.json")).sort().pop() ?? "";
    const text = await readFile(join(jdir, newest), "utf8");
    await writeFile(join(jdir, newest), text.slice(0, Math.floor(text.length / 2)));
    await writeFile(join(jdir, `.${newest}.999.tmp`), text.slice(0, 10));
    const r = cli("undo", "--vault", dir, "--last");
    expect(r.status, r.stderr).toBe(0);
    expect(await vaultHash(dir)).toBe(before);
  }, 120_000);
});
