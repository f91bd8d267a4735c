/**
 * `ask --vault DIR [--model F | --engine llama-server|openai --url URL … | --replay F.jsonl] [--allow-writes] [--transcript F] MESSAGE`:
 * one agent turn over a folder vault, printed as a transcript. `--transcript` appends every event and every model
 * reply (`{"reply": "..."}`) to a JSONL file; `--replay` reads those replies back in place of a model, routing and
 * per-round grammar as for a model (`--replay-full-catalog`: every tool offered, as before routing).
 */
import { appendFileSync } from "node:fs";
import { resolve } from "node:path";
import type { AgentEvent } from "../../core/agent/events";
import { McpConfigError, type McpServerConfig } from "../../engine/mcp/mcp-config";
import { parseArgs, UsageError } from "../cli-types";
import { composeHeadless, TEST_MODEL_CLAMP, TEST_MODEL_GRAMMAR } from "../compose";
import type { ManagedLlamaEngine } from "../../engine/server/managed-llama-engine";
import { readMcpConfigFile } from "../mcp-config-file";
import { localLlamaEngine, localLlamaFromFlags, SERVER_FLAGS, SERVER_USAGE, serverFromFlags, serverRunsTestModel } from "../server-flags";
import { CONSTRAINT_LABELS } from "../../core/ports/engine";
import { recordReplies, type ReplayEngine } from "../../engine/replay";
import { replayEngineFromFile } from "../replay-file";

export const usage =
  `ask --vault DIR [--model F] [--embed-model F] ${SERVER_USAGE} [--allow-writes] [--transcript F.jsonl] [--replay F.jsonl [--replay-full-catalog]] [--seed N] [--mcp F.json] MESSAGE   one agent turn over a folder vault (with the tools of the MCP servers in F.json)`;

/** Turns the event stream into readable lines; deltas are written as they come. */
export function transcriptPrinter(write: (text: string) => void): (event: AgentEvent) => void {
  let open: "thought" | "message" | null = null;
  const close = (): void => {
    if (open) write("\n");
    open = null;
  };
  return (event) => {
    switch (event.type) {
      case "turn-start":
        write(`> ${event.message}\n`);
        break;
      case "routed":
        close();
        write(
          event.chatOnly
            ? "[routed] chat only: no tools offered\n"
            : `[routed] ${event.branch}: ${event.tools.map((t) => `${t.name} (${t.score})`).join(", ") || "(none)"}\n`,
        );
        break;
      case "thought-delta":
        if (open !== "thought") {
          close();
          write(`[thought r${event.round}] `);
          open = "thought";
        }
        write(event.text);
        break;
      case "message-delta":
        if (open !== "message") {
          close();
          write(`[assistant r${event.round}] `);
          open = "message";
        }
        write(event.text);
        break;
      case "tool-call":
        close();
        write(`[call ${event.callId}] ${event.name} ${JSON.stringify(event.args)}\n`);
        break;
      case "confirm-asked":
        close();
        write(`[confirm ${event.callId}] ${event.request.summary}\n`);
        break;
      case "confirm-answered":
        write(`[confirm ${event.callId}] ${event.decision}\n`);
        break;
      case "tool-result": {
        close();
        const body = event.content.length > 400 ? `${event.content.slice(0, 400)}…` : event.content;
        write(`[result ${event.callId}] ${event.ok ? "ok" : `refused (${event.error?.code})`}: ${body.replace(/\n/g, "\n    ")}\n`);
        break;
      }
      case "error":
        close();
        write(`[${event.recoverable ? "retry" : "error"}] ${event.message}\n`);
        break;
      case "turn-end":
        close();
        write(
          `[end] ${event.outcome} after ${event.rounds} round(s), ${event.tokensIn} tokens in, ${event.tokensOut} out, ${event.ms} ms` +
            `${event.constraint ? `, constrained by ${CONSTRAINT_LABELS[event.constraint]}` : ""}\n`,
        );
        break;
    }
  };
}

export async function run(argv: string[]): Promise<number> {
  const { options, positionals } = parseArgs(argv, { strings: ["vault", "model", "embed-model", "transcript", "seed", "mcp", "replay", ...SERVER_FLAGS], booleans: ["allow-writes", "replay-full-catalog"] });
  const server = serverFromFlags(options);
  const local = localLlamaFromFlags(options);
  if (server && typeof options.model === "string") throw new UsageError("Give either --model (the built-in engine) or --engine with --url (a server), not both.");
  if (typeof options.vault !== "string") throw new UsageError("Give the vault folder with --vault DIR.");
  const message = positionals.join(" ").trim();
  if (!message) throw new UsageError("Give the message to send, e.g. ask --vault ./vault \"what is in my inbox?\".");
  const replay = replayEngine(options, !!server || !!local);
  const seed = options.seed === undefined ? undefined : Number(options.seed);
  if (seed !== undefined && !Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number, got "${String(options.seed)}".`);
  let mcpServers: McpServerConfig[] | undefined;
  try {
    mcpServers = typeof options.mcp === "string" ? readMcpConfigFile(options.mcp) : undefined;
  } catch (err) {
    if (!(err instanceof McpConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    return 2;
  }
  let localEngine: ManagedLlamaEngine | undefined;
  let localTestModel = false;
  if (local && !replay) {
    localEngine = localLlamaEngine(local);
    try {
      localTestModel = await serverRunsTestModel(await localEngine.modelInfo());
    } catch (err) {
      await localEngine.shutdown();
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
  }
  const transcriptFile = typeof options.transcript === "string" ? resolve(options.transcript) : undefined;
  const headless = await composeHeadless({
    mcpServers,
    vault: options.vault,
    ...(replay ? { engine: replay } : {}),
    ...(localEngine ? { engine: localEngine, ...(localTestModel ? { grammarOptions: TEST_MODEL_GRAMMAR, clamp: TEST_MODEL_CLAMP } : {}) } : {}),
    model: typeof options.model === "string" && !local ? options.model : undefined,
    server,
    embedModel: typeof options["embed-model"] === "string" ? options["embed-model"] : undefined,
    allowWrites: options["allow-writes"] === true,
    transcriptFile,
    ...(transcriptFile ? { wrapEngine: (engine) => recordReplies(engine, (line) => appendFileSync(transcriptFile, line + "\n")) } : {}),
    agentOptions: {
      ...(localTestModel ? { maxTokensCap: 4096 } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(replay && options["replay-full-catalog"] === true ? { toolSelection: "full" as const } : {}),
    },
  });
  const closeAll = async (): Promise<void> => {
    await headless.close();
    await localEngine?.shutdown();
  };
  const out = (t: string): void => void process.stdout.write(t);
  const shown = server ?? (local ? { url: local.binary } : undefined);
  if (!replay && (shown || (!headless.testModel && headless.modelPath))) {
    // Load (and so check) the model or server before routing and memory prefetch: a bad file is one sentence on stderr.
    let info;
    try {
      info = await headless.engine.modelInfo();
    } catch (err) {
      await closeAll();
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    if (shown) out(`[engine] ${info.server ?? shown.url}: model ${info.name}, context ${info.contextSize ?? "unknown"}, constrained by ${CONSTRAINT_LABELS[info.constraint ?? "gbnf"]}\n`);
  }
  if (replay) out(`[note] Replaying ${replay.remaining} recorded replies; each must be allowed by its round's grammar.\n`);
  else if (headless.testModel || localTestModel) {
    out(
      `[note] ${server || local ? "The server runs" : "No --model given: using"} the generated random-weight test model. Its words are noise; what this run shows is the protocol ` +
        "(every reply a valid envelope under the grammar, every tool call checked by the gatekeeper). Pass --model F for real answers.\n",
    );
  }
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once("SIGINT", onSigint);
  try {
    const result = await headless.agent.runTurn(message, { signal: controller.signal, onEvent: transcriptPrinter(out) });
    if (replay && replay.remaining > 0) process.stderr.write(`The turn ended with ${replay.remaining} recorded replies not used.\n`);
    return result.outcome === "failed" ? 1 : 0;
  } finally {
    process.off("SIGINT", onSigint);
    await closeAll();
  }
}

/** The replay engine over `--replay F.jsonl`, or undefined without the flag. */
function replayEngine(options: Record<string, string | boolean | undefined>, engineGiven: boolean): ReplayEngine | undefined {
  if (options["replay-full-catalog"] === true && typeof options.replay !== "string") throw new UsageError("--replay-full-catalog goes with --replay F.jsonl.");
  if (typeof options.replay !== "string") return undefined;
  if (engineGiven || typeof options.model === "string") throw new UsageError("Give either --replay (recorded replies) or a model or server, not both.");
  if (typeof options["embed-model"] === "string") throw new UsageError("--embed-model needs a model engine to embed with; a replay has none, so give --replay without it.");
  return replayEngineFromFile(options.replay);
}
