/**
 * `npm run demo`: copies examples/vault to a temp folder and runs one real `ask` turn over it — with the
 * model in VAULT_AGENT_MODEL when set, otherwise the generated random-weight test model.
 */
import { cpSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./commands/ask";

const vault = mkdtempSync(join(tmpdir(), "vault-agent-demo-"));
cpSync(fileURLToPath(new URL("../../examples/vault", import.meta.url)), vault, { recursive: true });
const message = process.argv.slice(2).join(" ").trim() || "What is on my shopping list?";
const model = process.env.VAULT_AGENT_MODEL;
process.stdout.write(`[demo] vault copied to ${vault}\n`);
const args = ["--vault", vault, ...(model ? ["--model", model] : []), message];
run(args).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
