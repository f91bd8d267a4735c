/** A temp copy of examples/vault, a FolderVault over it, a folder journal, and tool calls that run through the journal. */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { ChangeJournal, type ChangeJournalOptions } from "../../../src/core/journal";
import type { ToolResult } from "../../../src/core/protocol/tool";
import { defaultJournalDir, FolderJournalStore } from "../../../src/node/folder-journal-store";
import { makeHarness, type Harness } from "../tools/tool-harness";

export interface JournalHarness extends Harness {
  journal: ChangeJournal;
  journalDir: string;
  /** Runs a tool as one call of the given turn, its writes journaled. */
  run(turnId: string, callId: string, name: string, args: Record<string, unknown>): Promise<ToolResult>;
}

export async function makeJournalHarness(options: ChangeJournalOptions = {}): Promise<JournalHarness> {
  const h = await makeHarness();
  const journalDir = defaultJournalDir(h.root);
  const journal = new ChangeJournal(new FolderJournalStore(journalDir), options);
  return {
    ...h,
    journal,
    journalDir,
    run: (turnId, callId, name, args) => {
      const t = h.tool(name);
      return t.handler(t.args.parse(args), { ...h.ctx, vault: journal.vaultFor(h.vault, { turnId, callId, tool: name }) });
    },
  };
}

/** One hash over every file's path and bytes, hidden folders (config, trash) left out, as Obsidian shows the vault. */
export async function vaultHash(root: string): Promise<string> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (e.name.startsWith(".")) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full);
      else files.push(full);
    }
  };
  await walk(root);
  const hash = createHash("sha256");
  for (const f of files.sort()) {
    hash.update(relative(root, f)).update("\0").update(await readFile(f)).update("\0");
  }
  return hash.digest("hex");
}
