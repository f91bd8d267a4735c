/**
 * `bench grounding [--notes N] [--calls N] [--seed S] [--json]`: grounded calls on a generated vault (1,000 notes by
 * default). Builds the vault's path tree and a turn's grounded grammar (vault:read, vault:edit, vault:search,
 * vault:list, one note in context), then measures: path tree load (tree_load_ms), the turn grammar first and warm
 * (grammar_first_ms, grammar_warm_ms: the next turn, same vault), an update on a create and on a rename
 * (update_create_ms, update_rename_ms: the tree following the event) and the grammar of the round after each
 * (grammar_after_create_ms, grammar_after_rename_ms), grammar sizes (grammar_bytes, path_rules_bytes), the heap the
 * tree and its printed rules hold (structures_bytes, approximate: heap growth), the text rules of a 5,000-word note
 * (note_text_rules_bytes, note_text_rules_ms), and the share of calls naming a missing path, a heading the note
 * lacks, or edit text not in the note: under today's grammar and grounded (random walks over each grammar, `--calls`
 * calls each, default 1,000; the random walk stands in for random weights and is harsher: it picks any admitted text).
 * `--engine`: also generates `--replies` envelopes (default 20) on the random-weight test model through the engine
 * host under today's grammar and the grounded one (this vault's paths), and reports ms per produced token of each
 * (engine.plain_ms_per_token, engine.grounded_ms_per_token, their ratio; first_reply_ms includes the host's grammar
 * parse) and, per grammar, its replies' vault:read/vault:edit calls: calls, missing_paths, heading_args and find_args
 * (calls with a heading or edit text, whichever note they name), context_calls (calls naming the note in context),
 * heading_calls and find_calls (those of them with a heading or edit text, checked against the note) and
 * missing_headings and missing_finds (a heading it lacks, text not in it); the replies alternate between the grammars. The
 * host hands llama.cpp a grounded grammar's loose twin and holds the vault's rules itself (vault-loose.ts); the same
 * grammar with its rules renamed out of the host's sight (engine.in_llama: llama.cpp holds the whole trie, as before
 * that) is measured in the same run, on the built-in engine.
 * `--server URL`: the same against a running llama-server (started on the model to measure; the grammar goes with each
 * request, so its per-token cost is the server's own grammar sampling).
 * `--model F`: another GGUF for `--engine` (a family model: `make-test-model --family qwen2.5` has the 152k vocabulary).
 * `--with-calls`: every grammar of `--engine` (today's and the grounded ones alike) offers only vault:read and
 * vault:edit and requires at least one call, so random weights that would answer with no call or another tool (the
 * Qwen2.5 family model does) name a note in every reply and walk the vault's rules. `--tools T,U` offers those tools
 * instead (`--tools vault:read`: every call may carry a heading). A small vault (`--notes 3`) has replies name the note
 * in context often, so its headings and text are exercised. `--context-only`: the engine replies' vault is the note in
 * context alone (the grounded grammars' path tree and the counts hold that one path), so every grounded call names it
 * and its headings and edit text are checked on every family: the random weights of some (llama3.2, lfm2) leave the
 * tokens that begin it under 5% of the masked odds among the 3-note vault's four names, and top-p 0.95 cuts them.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";
import { parseArgs } from "../cli-types";
import { generateVault } from "../vault-generator/generate-vault";
import { SubsetCache } from "../../core/grammar";
import { GrammarSampler } from "../../core/grammar/sampler";
import { noteTextRules } from "../../core/grammar/note-text";
import { VaultPathIndex } from "../../core/grammar/vault-paths";
import { createToolCatalog } from "../../tools/index";
import { headingsOf } from "../../tools/sections";
import { ToolRegistry } from "../../tools/registry";
import { clampTools } from "../../app/clamp-schema";
import type { GroundingContext } from "../../core/ports/agent";
import type { CompiledGrammar } from "../../core/grammar/types";
import { createNodeEngine } from "../../engine/client/node-launcher";
import { defaultTestModelPath, TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../compose";

export const usage = "grounding [--notes N] [--calls N] [--seed S] [--engine] [--replies N] [--with-calls [--tools vault:read]] [--context-only] [--kinds plain,grounded,in_llama] [--model F | --server URL] [--json]   grounded path/heading/edit-text grammars on a generated vault: build and update times, sizes, missing references today vs grounded";

const TOOLS = ["vault:read", "vault:edit", "vault:search", "vault:list"];

function log(line: string): void {
  process.stderr.write(`[bench grounding] ${line}\n`);
}

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = fn();
  return { value, ms: Math.round((performance.now() - t) * 1000) / 1000 };
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Calls with path args, and how many name a missing path, the note in context, a heading the note lacks, or text not in it. */
interface Misses {
  calls: number;
  missing_path: number;
  context_calls: number;
  heading_args: number;
  find_args: number;
  heading_calls: number;
  missing_heading: number;
  find_calls: number;
  missing_find: number;
}

type Note = { path: string; text: string; headings: string[] };

/** Counts one call: a missing path, or for the note in context a heading it lacks or text not in it. */
function countCall(m: Misses, c: { name: string; args: Record<string, unknown> }, index: VaultPathIndex, note: Note): void {
  m.calls++;
  if (typeof c.args.heading === "string") m.heading_args++;
  if (typeof c.args.find === "string") m.find_args++;
  const path = typeof c.args.path === "string" ? index.resolve(c.args.path) : null;
  if (path === null) {
    m.missing_path++;
    return;
  }
  if (path !== note.path) return;
  m.context_calls++;
  if (typeof c.args.heading === "string") {
    m.heading_calls++;
    if (!note.headings.some((h) => h.toLowerCase() === (c.args.heading as string).toLowerCase())) m.missing_heading++;
  }
  if (typeof c.args.find === "string") {
    m.find_calls++;
    if (!note.text.includes(c.args.find)) m.missing_find++;
  }
}

const noMisses = (): Misses => ({ calls: 0, missing_path: 0, context_calls: 0, heading_args: 0, find_args: 0, heading_calls: 0, missing_heading: 0, find_calls: 0, missing_find: 0 });

function sampleMisses(gbnf: string, calls: number, seed: number, index: VaultPathIndex, note: Note): Misses {
  const sampler = new GrammarSampler(gbnf, { random: seeded(seed) });
  const m = noMisses();
  for (let guard = 0; m.calls < calls && guard < calls * 50; guard++) {
    const env = JSON.parse(sampler.sample()) as { tool_calls: { name: string; args: Record<string, unknown> }[] };
    for (const c of env.tool_calls) {
      if ((c.name !== "vault:read" && c.name !== "vault:edit") || m.calls >= calls) continue;
      countCall(m, c, index, note);
    }
  }
  return m;
}

/** A full collection, so heap growth counts what stays alive. */
const collect: () => void = (() => {
  v8.setFlagsFromString("--expose-gc");
  return vm.runInNewContext("gc") as () => void;
})();

function heapBytes(): number {
  collect();
  return process.memoryUsage().heapUsed;
}

/** A 5,000-word note of the vault's own words, in paragraphs of sentences under headings. */
function longNote(words: string[]): string {
  const out: string[] = [];
  for (let i = 0, w = 0; w < 5000; i++) {
    if (i % 8 === 0) out.push(`## Section ${i / 8 + 1}`);
    const n = 12 + (i % 9);
    out.push(words.slice(w % (words.length - 30), (w % (words.length - 30)) + n).join(" ") + ".");
    w += n;
  }
  return out.join("\n");
}

export async function run(argv: string[]): Promise<Record<string, unknown>> {
  const { options } = parseArgs(argv, { strings: ["notes", "calls", "seed", "replies", "model", "server", "kinds", "tools"], booleans: ["engine", "with-calls", "context-only"] });
  const notes = Number(options.notes ?? 1000);
  const calls = Number(options.calls ?? 1000);
  const seed = Number(options.seed ?? 7);
  const dir = mkdtempSync(join(tmpdir(), "va-grounding-"));
  try {
    log(`generating ${notes} notes`);
    const vault = generateVault(dir, { notes });
    const heap0 = heapBytes();
    const index = new VaultPathIndex();
    const load = timed(() => index.load(vault.paths));
    const registry = new ToolRegistry(createToolCatalog());
    const cache = new SubsetCache(registry.grammarTools());
    cache.setVaultPaths(index);
    const notePath = vault.paths[1];
    const text = readFileSync(join(dir, notePath), "utf8");
    const note = { path: notePath, text, headings: headingsOf(text).map((h) => h.text) };
    const context = { notes: [note] };
    const first = timed(() => cache.get(TOOLS, "dynamic", context));
    const warm = timed(() => cache.get(TOOLS, "dynamic", context));
    const pathRules = index.rules()?.text.length ?? 0;
    const structures = heapBytes() - heap0;
    const created = `${vault.paths[0].split("/")[0]}/A new note from the bench.md`;
    const create = timed(() => index.apply({ kind: "create", path: created }));
    const afterCreate = timed(() => cache.get(TOOLS, "dynamic", context));
    const renamed = vault.paths[2].replace(/\.md$/, " (renamed).md");
    const rename = timed(() => index.apply({ kind: "rename", oldPath: vault.paths[2], path: renamed }));
    const afterRename = timed(() => cache.get(TOOLS, "dynamic", context));
    const long = longNote(text.split(/\s+/).filter((w) => /^[a-z]+$/.test(w)).concat(["garden", "plan", "review"]));
    const longRules = timed(() => noteTextRules(long, "bench", 4000));
    log(`grammar ${afterRename.value.gbnf.length} bytes; sampling ${calls} calls under each grammar`);
    const plain = new SubsetCache(registry.grammarTools());
    const today = sampleMisses(plain.get(TOOLS, "dynamic").gbnf, calls, seed, index, note);
    const grounded = sampleMisses(afterRename.value.gbnf, calls, seed, index, note);
    const share = (m: Misses) => ({
      missing_path_pct: pct(m.missing_path, m.calls),
      missing_heading_pct: pct(m.missing_heading, m.heading_calls),
      missing_find_pct: pct(m.missing_find, m.find_calls),
    });
    const engine = options.engine ? await perToken(registry, index, context, Number(options.replies ?? 20), typeof options.model === "string" ? options.model : undefined, typeof options.server === "string" ? options.server : undefined, !!options["with-calls"], typeof options.kinds === "string" ? options.kinds.split(",") : undefined, typeof options.tools === "string" ? options.tools.split(",") : undefined, !!options["context-only"]) : undefined;
    return {
      notes,
      paths: index.size,
      tree_load_ms: load.ms,
      grammar_first_ms: first.ms,
      grammar_warm_ms: warm.ms,
      update_create_ms: create.ms,
      grammar_after_create_ms: afterCreate.ms,
      update_rename_ms: rename.ms,
      grammar_after_rename_ms: afterRename.ms,
      grammar_bytes: afterRename.value.gbnf.length,
      plain_grammar_bytes: plain.get(TOOLS, "dynamic").gbnf.length,
      path_rules_bytes: pathRules,
      structures_bytes: Math.max(0, structures),
      note_text_rules_bytes: longRules.value?.text.length ?? 0,
      note_text_rules_ms: longRules.ms,
      note_text_words: long.split(/\s+/).length,
      calls,
      today: { ...today, ...share(today) },
      grounded: { ...grounded, ...share(grounded) },
      ...(engine ? { engine } : {}),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pct(n: number, of: number): number | null {
  return of === 0 ? null : Math.round((1000 * n) / of) / 10;
}

/** ms per produced token on the test model through the host, today's grammar vs grounded (see the file comment). */
/** The grammar with at least one tool call: the envelope's `tool-calls ::= "[" calls? "]"` loses its `?`. */
function requireCall(g: CompiledGrammar): CompiledGrammar {
  const gbnf = g.gbnf.replace(/^tool-calls ::= "\[" (\S+)\? "\]"$/m, 'tool-calls ::= "[" $1 "]"');
  if (gbnf === g.gbnf) throw new Error("The envelope grammar has no optional tool-calls rule to require a call in.");
  return { ...g, gbnf };
}

async function perToken(registry: ToolRegistry, index: VaultPathIndex, context: GroundingContext & { notes: Note[] }, replies: number, model = defaultTestModelPath(), server?: string, withCalls = false, only?: string[], callTools = ["vault:read", "vault:edit"], contextOnly = false): Promise<Record<string, unknown>> {
  // A server goes through the engine host as the plugin reaches it (the host keeps the server from sampling part of a character).
  const engine = createNodeEngine(server ? { server: { kind: "llama-server", url: server } } : { model: { path: model, contextSize: 2048, threads: 1 } });
  try {
    const tools = clampTools(registry.grammarTools(), TEST_MODEL_CLAMP);
    const plain = new SubsetCache(tools, TEST_MODEL_GRAMMAR);
    const grounded = new SubsetCache(tools, TEST_MODEL_GRAMMAR);
    // `--context-only`: a vault of the note in context alone, for the grammars and for the counts.
    const vault = contextOnly ? new VaultPathIndex() : index;
    if (contextOnly) vault.load([context.notes[0].path]);
    grounded.setVaultPaths(vault);
    // Replies alternate between the two grammars (same seed for each pair), so load on the machine weighs on both alike.
    const tally = () => ({ tokens: 0, ms: 0, first: 0, misses: noMisses(), stops: {} as Record<string, number> });
    const totals = { plain: tally(), grounded: tally(), in_llama: tally() };
    const shape = withCalls ? requireCall : (g: CompiledGrammar) => g;
    const offered = withCalls ? callTools : TOOLS;
    const groundedGrammar = shape(grounded.get(offered, "dynamic", context));
    // The same language with the vault's rules under other names: the host sees an ordinary grammar and llama.cpp holds it whole.
    const inLlama = { ...groundedGrammar, gbnf: groundedGrammar.gbnf.replace(/\bv(pt|nt|tg)-/g, "vx$1-") };
    const grammars = { plain: shape(plain.get(offered, "dynamic", context)), grounded: groundedGrammar, in_llama: inLlama };
    // `--kinds plain,grounded` leaves out the old scheme (llama.cpp holding the trie), for runs that count misses.
    const kinds = (server ? (["plain", "grounded"] as const) : (["plain", "grounded", "in_llama"] as const)).filter((k) => !only || only.includes(k));
    for (let i = 0; i < replies; i++) {
      for (const kind of kinds) {
        const g = grammars[kind];
        const sum = totals[kind];
        const t = performance.now();
        const r = await engine.generate({ messages: [{ role: "user", content: `Reply ${i + 1}.` }], grammar: g.gbnf, maxTokens: Math.min(g.maxBytes, 1024), temperature: 1, seed: i + 1 });
        const took = performance.now() - t;
        sum.stops[r.stopReason] = (sum.stops[r.stopReason] ?? 0) + 1;
        if (i === 0) sum.first = took;
        else {
          sum.ms += took;
          sum.tokens += r.tokensOut;
        }
        try {
          for (const c of (JSON.parse(r.text) as { tool_calls: { name: string; args: Record<string, unknown> }[] }).tool_calls) {
            if (c.name === "vault:read" || c.name === "vault:edit") countCall(sum.misses, c, vault, context.notes[0]);
          }
        } catch {
          // A reply cut at maxTokens: no calls counted.
        }
      }
    }
    const figures = (kind: keyof typeof totals) => {
      const s = totals[kind];
      const m = s.misses;
      return { first_reply_ms: Math.round(s.first), ms_per_token: s.tokens ? Math.round((1000 * s.ms) / s.tokens) / 1000 : null, tokens: s.tokens, calls: m.calls, missing_paths: m.missing_path, context_calls: m.context_calls, heading_args: m.heading_args, find_args: m.find_args, heading_calls: m.heading_calls, missing_headings: m.missing_heading, find_calls: m.find_calls, missing_finds: m.missing_find, stop_reasons: s.stops, grammar_bytes: grammars[kind].gbnf.length };
    };
    const a = figures("plain");
    const b = figures("grounded");
    const c = kinds.includes("in_llama") ? figures("in_llama") : undefined;
    const ratio = (x: { ms_per_token: number | null }) => (a.ms_per_token && x.ms_per_token ? Math.round((100 * x.ms_per_token) / a.ms_per_token) / 100 : null);
    log(`per token: today ${a.ms_per_token} ms, grounded ${b.ms_per_token} ms${c ? `, grounded with llama.cpp holding the trie ${c.ms_per_token} ms` : ""}`);
    return { replies, with_calls: withCalls, ...(contextOnly ? { context_only: true, paths: vault.size } : {}), plain: a, grounded: b, ratio: ratio(b), ...(c ? { in_llama: c, in_llama_ratio: ratio(c) } : {}) };
  } finally {
    await engine.shutdown();
  }
}
