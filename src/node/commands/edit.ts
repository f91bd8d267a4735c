/**
 * `edit --vault DIR --note PATH [--select FROM:TO | --heading H] [--model F | --engine … | --replay F.jsonl]
 * [--apply all|none|1,3] [--json] INSTRUCTION`: an in-place edit proposal on a selection (character offsets), a
 * section or the whole note, made under the edit grammar (every change quotes the note's own text), printed as a
 * word-level diff (or JSON), and the chosen changes written through the change journal (`undo --last` takes them back).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { applyChanges, proposeEdit, sectionByHeading, EditReplyError, type EditChange, type EditTarget } from "../../core/edit";
import { ChangeJournal } from "../../core/journal";
import { normalizeVaultPath } from "../../core/gatekeeper/path-policy";
import type { Engine } from "../../core/ports/engine";
import type { ReplayEngine } from "../../engine/replay";
import { replayEngineFromFile } from "../replay-file";
import { parseArgs, UsageError } from "../cli-types";
import { composeHeadless } from "../compose";
import { defaultJournalDir, FolderJournalStore } from "../folder-journal-store";
import { localLlamaEngine, localLlamaFromFlags, SERVER_FLAGS, SERVER_USAGE, serverFromFlags } from "../server-flags";

export const usage =
  `edit --vault DIR --note PATH [--select FROM:TO | --heading H] [--model F] ${SERVER_USAGE} [--replay F.jsonl] [--apply all|none|1,3] [--seed N] [--json] INSTRUCTION   an in-place edit: proposed changes as a word-level diff, the chosen ones written (journaled)`;

/** Caps on the random-weight test model: its noise fills every string, so short ones keep a proposal quick. */
const TEST_MODEL_EDIT = { maxReplaceChars: 16, maxRewriteChars: 48 };

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["vault", "note", "select", "heading", "model", "replay", "apply", "seed", ...SERVER_FLAGS], booleans: ["json"] });
  if (typeof options.vault !== "string") throw new UsageError("Give the vault folder with --vault DIR.");
  if (typeof options.note !== "string") throw new UsageError("Name the note to edit with --note PATH.");
  const instruction = positionals.join(" ").trim();
  if (!instruction) throw new UsageError('Give the instruction, e.g. edit --vault ./vault --note Ideas.md "fix the typos".');
  if (typeof options.select === "string" && typeof options.heading === "string") throw new UsageError("Give either --select FROM:TO or --heading H, not both.");
  const apply = parseApply(options.apply);
  const seed = options.seed === undefined ? undefined : Number(options.seed);
  if (seed !== undefined && !Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number, got "${String(options.seed)}".`);
  const server = serverFromFlags(options);
  const local = localLlamaFromFlags(options);
  const replay = replayEngine(options, !!server || !!local);
  const root = resolve(options.vault);
  if (!existsSync(root)) throw new UsageError(`The vault folder ${root} does not exist.`);
  const path = normalizeVaultPath(options.note);
  const localEngine = local && !replay ? localLlamaEngine(local) : undefined;
  const engine: Engine | undefined = replay ?? localEngine;
  const headless = await composeHeadless({
    vault: root,
    ...(engine ? { engine } : {}),
    model: typeof options.model === "string" && !local ? options.model : undefined,
    server,
    memory: false,
    journalDir: false,
  });
  try {
    const vault = headless.vault;
    if (!(await vault.exists(path))) {
      process.stderr.write(`The note ${path} does not exist in ${root}.\n`);
      return 1;
    }
    const note = await vault.read(path);
    if (headless.testModel && options.json !== true) {
      process.stderr.write("[note] The model is a generated random-weight test model: its words are noise; what this run shows is that every proposed change quotes the note and applies. Pass --model F for real edits.\n");
    }
    const target = targetOf(note, options);
    const json = options.json === true;
    let proposal;
    try {
      proposal = await proposeEdit(headless.engine, target, instruction, { ...(seed !== undefined ? { seed } : {}), ...(headless.testModel ? { grammar: TEST_MODEL_EDIT, temperature: 1 } : {}) });
    } catch (err) {
      if (!(err instanceof EditReplyError)) throw err;
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    const chosen = apply === "all" ? new Set(proposal.changes.map((c) => c.id)) : apply;
    const missing = [...chosen].filter((id) => !proposal.changes.some((c) => c.id === id));
    if (missing.length) {
      process.stderr.write(`There ${missing.length === 1 ? "is no change" : "are no changes"} ${missing.join(", ")}: the proposal has ${proposal.changes.length}.\n`);
      return 1;
    }
    let turnId: string | undefined;
    if (chosen.size > 0) {
      turnId = `edit-${Date.now().toString(36)}`;
      const journal = new ChangeJournal(new FolderJournalStore(defaultJournalDir(root, vault.configDir)));
      const journaled = journal.vaultFor(vault, { turnId, callId: "edit", tool: "edit-in-place" });
      // Compare-and-swap against the text the proposal was made on: a note changed meanwhile is not overwritten.
      await journaled.process(path, (current) => applyChanges(current, proposal.changes, chosen), note);
    }
    const after = chosen.size > 0 ? await vault.read(path) : note;
    if (json) {
      process.stdout.write(
        JSON.stringify({
          note: path,
          region: { from: target.from, to: target.to },
          changes: proposal.changes.map((c) => ({ ...c, line: lineOf(note, c.from), applied: chosen.has(c.id) })),
          applied: [...chosen].sort((a, b) => a - b),
          ...(turnId ? { turnId } : {}),
          diffMs: Math.round(proposal.diffMs * 100) / 100,
          changed: after !== note,
        }) + "\n",
      );
    } else {
      const out = (line: string) => void process.stdout.write(`${line}\n`);
      if (proposal.changes.length === 0) out("No change proposed.");
      for (const c of proposal.changes) out(describeChange(note, c, chosen.has(c.id)));
      if (turnId) out(`Applied ${[...chosen].sort((a, b) => a - b).join(", ")} to ${path} (turn ${turnId}; undo --last takes it back).`);
    }
    return 0;
  } finally {
    await headless.close();
    await localEngine?.shutdown();
  }
}

/** `--apply`: "none" (default), "all", or change numbers. */
function parseApply(value: string | boolean | undefined): "all" | Set<number> {
  if (value === undefined || value === "none") return new Set();
  if (value === "all") return "all";
  const ids = String(value).split(",").map((s) => s.trim());
  if (!ids.every((s) => /^[1-9]\d*$/.test(s))) throw new UsageError(`--apply takes all, none or change numbers such as 1,3; got "${String(value)}".`);
  return new Set(ids.map(Number));
}

/** The region: `--select FROM:TO` (character offsets), `--heading H`, or the whole note. */
function targetOf(note: string, options: Record<string, string | boolean | undefined>): EditTarget {
  if (typeof options.select === "string") {
    const m = /^(\d+):(\d+)$/.exec(options.select);
    if (!m) throw new UsageError(`--select takes FROM:TO character offsets, such as 0:120; got "${options.select}".`);
    const from = Number(m[1]);
    const to = Number(m[2]);
    if (from >= to || to > note.length) throw new UsageError(`--select ${options.select} is not a range of the note, which has ${note.length} characters.`);
    return { note, from, to };
  }
  if (typeof options.heading === "string") {
    const section = sectionByHeading(note, options.heading);
    if (!section) throw new UsageError(`The note has no heading "${options.heading}".`);
    return { note, from: section.from, to: section.to };
  }
  return { note, from: 0, to: note.length };
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < offset; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** "[2] line 6: soil {-too -}dry" with a little context on each side. */
function describeChange(note: string, c: EditChange, applied: boolean): string {
  const before = note.slice(Math.max(0, c.from - 24), c.from).split("\n").pop() ?? "";
  const after = note.slice(c.to, c.to + 24).split("\n")[0];
  const del = c.deleted ? `[-${c.deleted}-]` : "";
  const ins = c.insert ? `{+${c.insert}+}` : "";
  return `[${c.id}]${applied ? " applied," : ""} line ${lineOf(note, c.from)}: ${before}${del}${ins}${after}`.replace(/\n/g, "⏎");
}

/** The replay engine over `--replay F.jsonl`, or undefined without the flag. */
function replayEngine(options: Record<string, string | boolean | undefined>, engineGiven: boolean): ReplayEngine | undefined {
  if (typeof options.replay !== "string") return undefined;
  if (engineGiven || typeof options.model === "string") throw new UsageError("Give either --replay (recorded replies) or a model or server, not both.");
  return replayEngineFromFile(options.replay);
}
