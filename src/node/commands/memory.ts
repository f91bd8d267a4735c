/**
 * `memory list|commit|drop --vault DIR [--conversation ID] [--all] [ID…]`: the staged memories of the chat pane's
 * conversations, headless. `list` shows them (each with the kept memory notes it contradicts); `commit` keeps them as
 * memory notes through the change journal (`undo` takes them back) and adds them to the index when one exists;
 * `drop` removes them from the conversation and from the history they reached. Fact ids (`m1`) after the options
 * pick single facts of the one conversation named.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Conversation } from "../../core/agent/conversation";
import { ChangeJournal } from "../../core/journal";
import { dropStaged, keepStaged, reviewItems } from "../../app/memory-review";
import { parseArgs, UsageError } from "../cli-types";
import { FolderVault } from "../folder-vault/folder-vault";
import { defaultIndexDir, openFolderMemory } from "../folder-vault/folder-memory";
import { defaultJournalDir, FolderJournalStore } from "../folder-journal-store";
import { listConversations, loadConversation, pluginMemorySettings, saveConversation, type PluginMemorySettings } from "../conversation-files";

export const usage =
  "memory list|commit|drop --vault DIR [--conversation ID] [--all] [--json] [--conversations-dir D] [--index-dir D] [--embed-model F] [ID…]   the chat's staged memories: list them, keep them as memory notes (undoable), or drop them";

type Action = "list" | "commit" | "drop";
type Options = Record<string, string | boolean | undefined>;

interface Context {
  root: string;
  vault: FolderVault;
  settings: PluginMemorySettings;
  options: Options;
  out: (line: string) => void;
}

export async function run(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action !== "list" && action !== "commit" && action !== "drop") {
    throw new UsageError(action ? `Unknown memory action "${action}"; use list, commit or drop.` : "Say what to do: memory list, memory commit or memory drop.");
  }
  const { options, positionals } = parseArgs(rest, { strings: ["vault", "conversation", "conversations-dir", "index-dir", "embed-model", "threads"], booleans: ["all", "json"] });
  if (typeof options.vault !== "string") throw new UsageError("Name the vault folder with --vault DIR.");
  const root = resolve(options.vault);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new UsageError(`The vault folder "${options.vault}" does not exist.`);
  if (action !== "list" && !options.all && typeof options.conversation !== "string") {
    throw new UsageError(`Say which staged memories to ${action}: --conversation ID (all of its facts, or the fact ids after it) or --all.`);
  }
  if (options.all && typeof options.conversation === "string") throw new UsageError("Give either --conversation ID or --all, not both.");
  if (positionals.length && typeof options.conversation !== "string") throw new UsageError("Fact ids (like m1) pick facts of one conversation: name it with --conversation ID.");
  const vault = new FolderVault(root, { watch: false });
  const found = pluginMemorySettings(root, vault.configDir);
  const settings = typeof options["conversations-dir"] === "string" ? { ...found, conversationsDir: resolve(options["conversations-dir"]) } : found;
  const ctx: Context = { root, vault, settings, options, out: (line) => void process.stdout.write(`${line}\n`) };
  try {
    const conversations = await chosenConversations(ctx);
    if (!conversations) return 1;
    const missing = positionals.filter((id) => !conversations[0]?.staged.get(id));
    if (missing.length) {
      process.stderr.write(`No staged memory ${missing.map((m) => `"${m}"`).join(", ")} in conversation "${String(options.conversation)}"; run memory list to see the staged ones.\n`);
      return 1;
    }
    const ids = positionals.length ? positionals : undefined;
    return await act(action, ctx, conversations, ids);
  } finally {
    vault.close();
  }
}

/** The named conversation, or every one with staged facts; null (and a sentence) when the named one does not exist. */
async function chosenConversations(ctx: Context): Promise<Conversation[] | null> {
  const id = ctx.options.conversation;
  if (typeof id !== "string") return listConversations(ctx.settings.conversationsDir).filter((c) => c.staged.size > 0);
  const one = await loadConversation(ctx.settings.conversationsDir, id);
  if (!one) {
    process.stderr.write(`No saved conversation "${id}" in ${ctx.settings.conversationsDir}; run memory list to see the conversations with staged memories.\n`);
    return null;
  }
  return [one];
}

async function act(action: Action, ctx: Context, conversations: Conversation[], ids: string[] | undefined): Promise<number> {
  if (action === "list") return list(ctx, conversations);
  const total = conversations.reduce((n, c) => n + (ids ? ids.length : c.staged.size), 0);
  if (total === 0) {
    ctx.out("No staged memories.");
    return 0;
  }
  if (action === "drop") {
    for (const conversation of conversations) {
      for (const m of dropStaged(conversation, ids)) ctx.out(`Dropped ${conversation.id} ${m.id}: ${m.content}`);
      await saveConversation(ctx.settings.conversationsDir, conversation);
    }
    return 0;
  }
  return commit(ctx, conversations, ids);
}

async function list(ctx: Context, conversations: Conversation[]): Promise<number> {
  const all = [];
  for (const conversation of conversations) {
    const items = await reviewItems(conversation, { vault: ctx.vault, memoryFolder: ctx.settings.memoryFolder });
    all.push({ conversation, items });
  }
  if (ctx.options.json) {
    const rows = all.map(({ conversation, items }) => ({
      conversation: conversation.id,
      title: conversation.title,
      staged: items.map((i) => ({ ...i.memory, conflicts: i.conflicts.map((c) => ({ kind: c.kind, path: c.kept.path, text: c.kept.text, reason: c.reason })) })),
    }));
    ctx.out(JSON.stringify(rows));
    return 0;
  }
  if (all.every((a) => a.items.length === 0)) ctx.out("No staged memories.");
  for (const { conversation, items } of all) {
    if (items.length === 0) continue;
    ctx.out(`${conversation.id} "${conversation.title || "Untitled conversation"}": ${items.length} staged`);
    for (const { memory, conflicts } of items) {
      ctx.out(`  ${memory.id}  ${memory.content}`);
      for (const c of conflicts) ctx.out(`      ${c.kind === "contradicts" ? "contradicts" : "already kept in"} ${c.kept.path} (${c.reason}): ${c.kept.text.replace(/\s+/g, " ").slice(0, 160)}`);
    }
  }
  return 0;
}

async function commit(ctx: Context, conversations: Conversation[], ids: string[] | undefined): Promise<number> {
  const journal = new ChangeJournal(new FolderJournalStore(defaultJournalDir(ctx.root, ctx.vault.configDir)));
  const kept: string[] = [];
  let failed = 0;
  for (const conversation of conversations) {
    const result = await keepStaged(conversation, { vault: ctx.vault, journal, memoryFolder: ctx.settings.memoryFolder, excludedFolders: ctx.settings.excludedFolders }, ids);
    for (const k of result.kept) ctx.out(`Kept ${conversation.id} ${k.id} as ${k.path}`);
    for (const f of result.failed) process.stderr.write(`${f.reason}\n`);
    failed += result.failed.length;
    if (result.turnId) ctx.out(`Undo with: undo --vault ${ctx.options.vault as string} --turn ${result.turnId}`);
    kept.push(...result.kept.map((k) => k.path));
    await saveConversation(ctx.settings.conversationsDir, conversation);
  }
  if (kept.length) ctx.out(await indexKept(ctx, kept));
  return failed > 0 ? 1 : 0;
}

/** Adds kept notes to the vault's index when there is one (with vectors when the index has them and a model is given). */
async function indexKept(ctx: Context, paths: string[]): Promise<string> {
  const indexDir = resolve(typeof ctx.options["index-dir"] === "string" ? ctx.options["index-dir"] : defaultIndexDir(ctx.root, ctx.vault.configDir));
  const manifest = join(indexDir, "memory-manifest.json");
  if (!existsSync(manifest)) return "No index yet: index --vault DIR builds one, kept notes included.";
  const semantic = /"modelKey":"/.test(readFileSync(manifest, "utf8").slice(0, 400));
  const embedModel = typeof ctx.options["embed-model"] === "string" ? ctx.options["embed-model"] : undefined;
  if (semantic && !embedModel) return "The index holds vectors: add the kept notes with index --vault DIR --embed-model F, or rerun with --embed-model F.";
  const threads = ctx.options.threads === undefined ? undefined : Number(ctx.options.threads);
  const memory = await openFolderMemory({ vault: ctx.root, embedModel, indexDir, excludedFolders: ctx.settings.excludedFolders, threads });
  try {
    await memory.indexer.load();
    for (const path of paths) await memory.indexer.updateNote(path);
  } finally {
    await memory.close();
  }
  return `Indexed ${paths.length} kept ${paths.length === 1 ? "note" : "notes"}.`;
}
