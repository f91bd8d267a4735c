/**
 * Every option the documentation names for a command appears in that command's `--help`: the CLI table of
 * docs/cli.md (each command and the options its row names), the commands of the "Measured" table in
 * docs/measured.md and every `npm run --silent cli -- …` line of README.md and docs/*.md, checked against the
 * help text the CLI's own `main` prints.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { main } from "../../../src/node/cli";

const root = join(import.meta.dirname, "..", "..", "..");
const docs = join(root, "docs");
const cliPage = readFileSync(join(docs, "cli.md"), "utf8");
const measuredPage = readFileSync(join(docs, "measured.md"), "utf8");
/** README.md and every docs page, for the shell lines that run the CLI. */
const pages = [join(root, "README.md"), ...readdirSync(docs).filter((f) => f.endsWith(".md")).map((f) => join(docs, f))].map((f) => readFileSync(f, "utf8")).join("\n");
const commands = new Set(readdirSync(join(root, "src", "node", "commands")).filter((f) => f.endsWith(".ts")).map((f) => f.slice(0, -3)));

/** A command as `--help` is asked for it: `bench sampling` for a benchmark, the command word otherwise. */
type Key = string;
const OPTION = /--[a-z][a-z0-9-]*/g;

/** The command a piece of documented code invokes, or undefined when it is no CLI invocation. */
function invoked(code: string): { key: Key; benchmarks?: string[] } | undefined {
  const line = code.includes("cli -- ") ? code.slice(code.indexOf("cli -- ") + "cli -- ".length) : code;
  const [word, next] = line.trim().split(/\s+/);
  if (!commands.has(word)) return undefined;
  if (word !== "bench" || !next) return { key: word };
  const listed = /^<([a-z|-]+)>$/.exec(next);
  if (listed) return { key: "bench", benchmarks: listed[1].split("|") };
  return /^[a-z-]+$/.test(next) ? { key: `bench ${next}` } : { key: "bench" };
}

/** Options documented per command, and the benchmarks `bench <a|b|…>` names. */
function documented(): { options: Map<Key, Set<string>>; benchmarks: string[] } {
  const options = new Map<Key, Set<string>>();
  const benchmarks: string[] = [];
  const add = (keys: Key[], code: string) => {
    for (const key of keys) {
      const set = options.get(key) ?? new Set<string>();
      for (const o of code.match(OPTION) ?? []) set.add(o);
      options.set(key, set);
    }
  };
  /** A page's section from its `## title` (or `# title`) line to the next heading of that level or above. */
  const section = (page: string, title: string) => {
    const start = page.search(new RegExp(`^#{1,2} ${title}\n`, "m"));
    if (start < 0) return "";
    const body = page.indexOf("\n", start) + 1;
    const next = page.slice(body).search(/^#{1,2} /m);
    return next < 0 ? page.slice(start) : page.slice(start, body + next);
  };
  const spans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\\\|/g, "|"));
  const cells = (row: string) => row.split(/(?<!\\)\|/).slice(1, -1);

  // The CLI table: a row's code spans in order; a span naming commands starts a group (consecutive bare
  // command spans, as in "`ask`, `eval`, `bench engine` with `--engine …`", form one), option spans join it.
  for (const row of section(cliPage, "CLI").split("\n").filter((l) => l.startsWith("| `"))) {
    let group: Key[] = [];
    let bare = false;
    for (const code of spans(cells(row).slice(0, 2).join("|"))) {
      const cmd = invoked(code.replace(/\.\.\./g, ""));
      if (cmd) {
        if (cmd.benchmarks) benchmarks.push(...cmd.benchmarks);
        const rest = code.trim().split(/\s+/).slice(1).join(" ");
        group = bare ? [...group, cmd.key] : [cmd.key];
        bare = !OPTION.test(rest);
        OPTION.lastIndex = 0;
        add([cmd.key], rest);
      } else if (code.startsWith("--")) {
        add(group, code);
        bare = false;
      }
    }
  }
  // The Measured table's commands, and every shell line that runs the CLI.
  for (const row of section(measuredPage, "Measured").split("\n").filter((l) => l.startsWith("|"))) {
    for (const code of spans(cells(row).at(-1) ?? "")) {
      const cmd = invoked(code);
      if (cmd) add([cmd.key], code.slice(code.indexOf(cmd.key.split(" ").at(-1)!)));
    }
  }
  for (const line of pages.split("\n").filter((l) => l.trim().startsWith("npm run --silent cli -- "))) {
    const cmd = invoked(line);
    if (cmd) add([cmd.key], line.slice(line.indexOf("cli -- ") + 7));
  }
  return { options, benchmarks };
}

/** What `cli <key> --help` prints, through the CLI's own main. */
async function help(key: Key): Promise<string> {
  const out: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  });
  try {
    expect(await main([...key.split(" "), "--help"])).toBe(0);
  } finally {
    spy.mockRestore();
  }
  return out.join("");
}

afterEach(() => vi.restoreAllMocks());

describe("the CLI documentation (docs/cli.md, docs/measured.md, README.md and docs/*.md shell lines)", () => {
  const { options, benchmarks } = documented();

  it("is read: the table's commands, their options and the benchmarks", () => {
    // Would fail if the table moved or its format changed so that the parser found nothing.
    expect([...options.keys()]).toEqual(expect.arrayContaining(["make-test-model", "grammar", "sample", "route", "ask", "eval", "mcp", "index", "search", "bench", "bench engine", "bench sampling", "bench schemas"]));
    expect([...(options.get("bench sampling") ?? [])]).toEqual(expect.arrayContaining(["--family", "--model", "--runs"]));
    expect([...(options.get("ask") ?? [])]).toEqual(expect.arrayContaining(["--vault", "--model", "--engine", "--url", "--api-key", "--server-model", "--mcp"]));
    expect(benchmarks).toEqual(expect.arrayContaining(["engine", "sampling", "schemas"]));
  });

  it("names no option that the command's --help leaves out", { timeout: 300_000 }, async () => {
    const missing: string[] = [];
    for (const [key, opts] of options) {
      const text = await help(key);
      for (const o of opts) if (!new RegExp(`${o}(?![a-z0-9-])`).test(text)) missing.push(`${key} ${o}`);
    }
    expect(missing).toEqual([]);
  });

  it("names benchmarks that bench --help lists, each with its own line", { timeout: 300_000 }, async () => {
    const text = await help("bench");
    for (const b of benchmarks) expect(text, b).toMatch(new RegExp(`^ +bench ${b} `, "m"));
  });

  it("matches what the CLI process itself prints for a benchmark's --help", { timeout: 300_000 }, async () => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", tsx, join(root, "src", "node", "cli.ts"), "bench", "sampling", "--help"], { cwd: root });
    expect(stdout).toBe(await help("bench sampling"));
    expect(stdout).toMatch(/--family .*--model .*--runs/);
  });
});
