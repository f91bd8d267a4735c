/**
 * A turn that never ends: appends to notes of the vault in argv[2] through the change journal, printing each
 * finished call's number, until the test kills it (SIGKILL, wherever it is: between records, mid-write).
 */
import { ChangeJournal } from "../../../src/core/journal";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { defaultJournalDir, FolderJournalStore } from "../../../src/node/folder-journal-store";

const root = process.argv[2];
const vault = new FolderVault(root, { watch: false });
const journal = new ChangeJournal(new FolderJournalStore(defaultJournalDir(root)));
const notes = ["Ideas.md", "Inbox.md", "Shopping List.md", "New 1.md", "New 2.md"];

for (let i = 0; ; i++) {
  const path = notes[i % notes.length];
  const call = journal.vaultFor(vault, { turnId: "tcrash", callId: `r${i}c0`, tool: "vault:append" });
  const line = `- line ${i} ${"pad ".repeat(2000)}\n`;
  if (await call.exists(path)) await call.process(path, (t) => t + line);
  else await call.create(path, line);
  process.stdout.write(`${i}\n`);
}
