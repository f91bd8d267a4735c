/**
 * `undo --vault DIR [--last | --turn ID[,ID…] | --list] [--force]`: undoes the agent's journaled changes in a folder
 * vault (the journal the plugin and `ask` keep in the vault's config folder).
 */
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { ChangeJournal, describeTurn, undoTurns, UndoConflict } from "../../core/journal";
import { parseArgs, UsageError } from "../cli-types";
import { FolderVault } from "../folder-vault/folder-vault";
import { defaultJournalDir, FolderJournalStore } from "../folder-journal-store";

export const usage = "undo --vault DIR [--last | --turn ID[,ID] | --list] [--force]   undoes the agent's journaled changes (a turn, the last turn) or lists the turns that can be undone";

export async function run(argv: string[]): Promise<number> {
  const { options } = parseArgs(argv, { strings: ["vault", "turn", "journal-dir"], booleans: ["last", "list", "force"] });
  if (typeof options.vault !== "string") throw new UsageError("Name the vault folder with --vault DIR.");
  const root = resolve(options.vault);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`The vault folder "${options.vault}" does not exist.`);
  const modes = [options.last === true, options.list === true, typeof options.turn === "string"].filter(Boolean).length;
  if (modes !== 1) throw new UsageError("Say what to undo: --last, --turn ID, or --list to see the turns that can be undone.");
  const vault = new FolderVault(root, { watch: false });
  const journal = new ChangeJournal(new FolderJournalStore(typeof options["journal-dir"] === "string" ? resolve(options["journal-dir"]) : defaultJournalDir(root, vault.configDir)));
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  try {
    const turns = await journal.turns();
    if (options.list) {
      if (turns.length === 0) out("Nothing to undo: the journal holds no agent changes.");
      for (const turn of turns) out(describeTurn(turn));
      return 0;
    }
    let chosen = turns.slice(0, 1);
    if (typeof options.turn === "string") {
      const ids = options.turn.split(",").map((s) => s.trim()).filter(Boolean);
      const missing = ids.filter((id) => !turns.some((t) => t.turnId === id));
      if (missing.length) {
        process.stderr.write(`No journaled turn ${missing.map((m) => `"${m}"`).join(", ")}; run undo --list to see the turns that can be undone.\n`);
        return 1;
      }
      chosen = turns.filter((t) => ids.includes(t.turnId));
    }
    if (chosen.length === 0) {
      out("Nothing to undo: the journal holds no agent changes.");
      return 0;
    }
    try {
      const result = await undoTurns(journal, vault, chosen, { force: options.force === true });
      for (const line of result.restored) out(line);
      out(`Undid turn ${result.turns.join(", ")}.`);
      return 0;
    } catch (err) {
      if (!(err instanceof UndoConflict)) throw err;
      process.stderr.write(`${err.message} Rerun with --force to overwrite it with the version from before the agent.\n`);
      return 1;
    }
  } finally {
    vault.close();
  }
}
