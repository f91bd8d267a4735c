/**
 * Headless entry: `npm run --silent cli -- <command> [options]`.
 * Each command lives in src/node/commands/<name>.ts so commands stay independent.
 */
import { readdirSync, realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join, resolve } from "node:path";
import { reportFailure, type CliCommand } from "./cli-types";

const commandsDir = join(dirname(fileURLToPath(import.meta.url)), "commands");

function commandNames(): string[] {
  return readdirSync(commandsDir)
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.slice(0, -3))
    .sort();
}

async function loadCommand(name: string): Promise<CliCommand | null> {
  if (!/^[a-z][a-z0-9-]*$/.test(name) || !commandNames().includes(name)) return null;
  return (await import(`./commands/${name}.ts`)) as CliCommand;
}

/** What `--help` prints for a command: its own help text where it has one (e.g. per benchmark), else its usage line. */
async function helpText(cmd: CliCommand, argv: string[]): Promise<string> {
  return cmd.help ? cmd.help(argv) : cmd.usage;
}

/** Runs one command line (without `node cli.ts`); returns the exit code. Exported for the docs/help test. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help") {
    const lines = ["Usage: npm run --silent cli -- <command> [options]", ""];
    for (const n of commandNames()) {
      const cmd = await loadCommand(n);
      const text = cmd ? await helpText(cmd, []) : n;
      lines.push(...text.split("\n").map((l) => `  ${l}`));
    }
    process.stdout.write(lines.join("\n") + "\n");
    return name ? 0 : 2;
  }
  const cmd = await loadCommand(name);
  if (!cmd) {
    process.stderr.write(`Unknown command "${name}". Run "npm run --silent cli -- help" for the list.\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    const text = await helpText(cmd, rest.filter((a) => a !== "--help" && a !== "-h"));
    process.stdout.write(`Usage: npm run --silent cli -- ${text}\n`);
    return 0;
  }
  try {
    return await cmd.run(rest);
  } catch (err) {
    return reportFailure(err, cmd.usage);
  }
}

/** Whether this file is the process's entry script (tsx src/node/cli.ts), not a module a test imported. */
function isEntry(): boolean {
  try {
    return !!process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`${String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
