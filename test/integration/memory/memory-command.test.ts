/**
 * `memory list|commit|drop` over a folder vault and the pane's saved conversations (where the plugin keeps them):
 * contradictions listed beside the kept memory, commit as journaled notes added to the existing index (and taken
 * back by `undo`), drop out of the conversation file, and bad input as one sentence with exit 2 (usage) or 1.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Conversation } from "../../../src/core/agent/conversation";
import { main } from "../../../src/node/cli";
import { Indexer } from "../../../src/core/memory/indexer";
import { FolderIndexStore } from "../../../src/host/vector/folder-index-store";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { copyVault, snapshot } from "../agent/scripted-helpers";
import { LocalTextStore } from "../../../src/core/memory/text-store";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  process.stdout.write = (chunk: string | Uint8Array) => (out.push(String(chunk)), true);
  process.stderr.write = (chunk: string | Uint8Array) => (err.push(String(chunk)), true);
  try {
    const code = await main(argv);
    return { code, out: out.join(""), err: err.join("") };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
  }
}

/** A vault with one kept memory and a saved conversation holding two staged facts. */
function setup(): { vault: string; conversationsDir: string; conversation: Conversation } {
  const vault = copyVault();
  dirs.push(vault);
  mkdirSync(join(vault, "Memory"), { recursive: true });
  writeFileSync(join(vault, "Memory", "2026-01-05 Invoice format.md"), "---\ncreated: 2026-01-05 09:00\ntags:\n  - memory\n---\nI prefer invoices as PDF.\n");
  const conversationsDir = join(vault, ".obsidian", "plugins", "vault-agent", "conversations");
  mkdirSync(conversationsDir, { recursive: true });
  const conversation = new Conversation({ title: "Paperwork" });
  conversation.append({ kind: "user", turnId: "t1", at: 1, content: "remember two things" });
  conversation.staged.stage({ content: "I prefer invoices as Word documents.", title: "Invoice format" }, { at: Date.UTC(2026, 2, 20, 12) });
  conversation.staged.stage({ content: "The boiler is serviced every May by Hartmann Heating." }, { at: Date.UTC(2026, 2, 20, 12) });
  writeFileSync(join(conversationsDir, `${conversation.id}.json`), JSON.stringify(conversation.toJSON()));
  return { vault, conversationsDir, conversation };
}

describe("memory command", () => {
  it("lists staged facts with the kept memory each contradicts", async () => {
    const { vault, conversation } = setup();
    const json = await cli(["memory", "list", "--vault", vault, "--json"]);
    expect(json.code).toBe(0);
    const [row] = JSON.parse(json.out) as { conversation: string; staged: { id: string; conflicts: { kind: string; path: string }[] }[] }[];
    expect(row.conversation).toBe(conversation.id);
    expect(row.staged.map((s) => s.id)).toEqual(["m1", "m2"]);
    expect(row.staged[0].conflicts).toEqual([expect.objectContaining({ kind: "contradicts", path: "Memory/2026-01-05 Invoice format.md" })]);
    expect(row.staged[1].conflicts).toEqual([]);
    const text = await cli(["memory", "list", "--vault", vault]);
    expect(text.out).toContain(`${conversation.id} "Paperwork": 2 staged`);
    expect(text.out).toContain("  m1  I prefer invoices as Word documents.");
    expect(text.out).toContain("      contradicts Memory/2026-01-05 Invoice format.md (same title): I prefer invoices as PDF.");
  });

  it("commits one fact as a journaled note, indexed in the existing index; undo takes it back", async () => {
    const { vault, conversationsDir, conversation } = setup();
    expect((await cli(["index", "--vault", vault])).code).toBe(0);
    const result = await cli(["memory", "commit", "--vault", vault, "--conversation", conversation.id, "m2"]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    expect(result.out).toMatch(new RegExp(`Kept ${conversation.id} m2 as Memory/2026-03-20 The boiler is serviced every May\\.md`));
    expect(result.out).toContain("Indexed 1 kept note.");
    const note = join(vault, "Memory", "2026-03-20 The boiler is serviced every May.md");
    expect(readFileSync(note, "utf8")).toContain("The boiler is serviced every May by Hartmann Heating.");
    const saved = Conversation.fromJSON(readFileSync(join(conversationsDir, `${conversation.id}.json`), "utf8"));
    expect(saved.staged.list().map((m) => m.id)).toEqual(["m1"]);
    // The saved index holds the note already (read as saved: no build, which would sync it anyway).
    const indexer = new Indexer({ vault: new FolderVault(vault, { watch: false }), indexStore: new FolderIndexStore(join(vault, ".obsidian", "plugins", "vault-agent", "index")), text: new LocalTextStore(new FolderIndexStore(join(vault, ".obsidian", "plugins", "vault-agent", "index"))), vectors: null, embed: null });
    await indexer.load();
    expect((await indexer.text.search("boiler hartmann", 3)).map((h) => h.path)).toEqual(["Memory/2026-03-20 The boiler is serviced every May.md"]);
    const undo = await cli(["undo", "--vault", vault, "--last"]);
    expect(undo.code).toBe(0);
    expect(existsSync(note)).toBe(false);
  });

  it("keeps a contradicting fact as a new note beside the older one, never over it", async () => {
    const { vault, conversation } = setup();
    const older = readFileSync(join(vault, "Memory", "2026-01-05 Invoice format.md"), "utf8");
    const result = await cli(["memory", "commit", "--vault", vault, "--conversation", conversation.id, "m1"]);
    expect(result.code).toBe(0);
    expect(readFileSync(join(vault, "Memory", "2026-01-05 Invoice format.md"), "utf8")).toBe(older);
    expect(readFileSync(join(vault, "Memory", "2026-03-20 Invoice format.md"), "utf8")).toContain("Word documents");
  });

  it("drops every staged fact: the vault is untouched and the conversation file no longer holds them", async () => {
    const { vault, conversationsDir, conversation } = setup();
    const before = snapshot(join(vault, "Memory"));
    const result = await cli(["memory", "drop", "--vault", vault, "--all"]);
    expect(result.code).toBe(0);
    expect(result.out).toContain(`Dropped ${conversation.id} m1: I prefer invoices as Word documents.`);
    const bytes = readFileSync(join(conversationsDir, `${conversation.id}.json`), "utf8");
    expect(bytes).not.toContain("Word documents");
    expect(bytes).not.toContain("Hartmann");
    expect(snapshot(join(vault, "Memory"))).toEqual(before);
    expect((await cli(["memory", "list", "--vault", vault])).out).toBe("No staged memories.\n");
  });

  it("says what is wrong in one sentence: exit 2 for usage, 1 for what does not exist", async () => {
    const { vault } = setup();
    const cases: [string[], number, RegExp][] = [
      [["memory"], 2, /^Say what to do: memory list, memory commit or memory drop\.\n/],
      [["memory", "keep", "--vault", vault], 2, /^Unknown memory action "keep"; use list, commit or drop\.\n/],
      [["memory", "list"], 2, /^Name the vault folder with --vault DIR\.\n/],
      [["memory", "list", "--vault", join(vault, "nope")], 2, /does not exist\.\n/],
      [["memory", "commit", "--vault", vault], 2, /^Say which staged memories to commit: --conversation ID .* or --all\.\n/],
      [["memory", "drop", "--vault", vault, "m1"], 2, /^Say which staged memories to drop/],
      [["memory", "commit", "--vault", vault, "--conversation", "c-none"], 1, /^No saved conversation "c-none" in .*; run memory list to see the conversations with staged memories\.\n$/],
    ];
    for (const [argv, code, message] of cases) {
      const result = await cli(argv);
      expect(result.code, argv.join(" ")).toBe(code);
      expect(result.err, argv.join(" ")).toMatch(message);
      expect(result.out).toBe("");
    }
    expect(readdirSync(join(vault, "Memory"))).toEqual(["2026-01-05 Invoice format.md"]);
  });
});
