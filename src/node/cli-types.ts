/** A CLI command module (src/node/commands/<name>.ts) exports `run` and `usage`. */
export interface CliCommand {
  /** One line shown by `cli help`. */
  usage: string;
  /** The full `--help` text, given the arguments beside `--help` (e.g. `bench sampling`); `usage` when absent. */
  help?(argv: string[]): Promise<string>;
  /** Returns the exit code: 0 success, 1 the job failed, 2 bad usage. */
  run(argv: string[]): Promise<number>;
}

/** A usage error: the CLI prints the sentence and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Writes a failed command's one sentence to stderr (with the usage line for a usage error); returns the exit code. */
export function reportFailure(err: unknown, usage: string): number {
  if (err instanceof UsageError) {
    process.stderr.write(`${err.message}\nUsage: ${usage}\n`);
    return 2;
  }
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  return 1;
}

/** Minimal `--flag value` / `--switch` parser; the rest are positionals. */
export function parseArgs(argv: string[], spec: { strings?: string[]; booleans?: string[] }): {
  options: Record<string, string | boolean | undefined>;
  positionals: string[];
} {
  const strings = new Set(spec.strings ?? []);
  const booleans = new Set(spec.booleans ?? []);
  const options: Record<string, string | boolean | undefined> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
      if (booleans.has(name)) {
        options[name] = true;
      } else if (strings.has(name)) {
        const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
        if (value === undefined) throw new UsageError(`Option --${name} needs a value.`);
        options[name] = value;
      } else {
        throw new UsageError(`Unknown option --${name}.`);
      }
    } else {
      positionals.push(arg);
    }
  }
  return { options, positionals };
}
