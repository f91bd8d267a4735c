/**
 * Engine host entry: a child process speaking newline-delimited JSON on stdin/stdout (see protocol.ts).
 * stdout carries only protocol lines — console output is sent to stderr, which the client keeps as
 * the host's log. Bundled by esbuild as a separate script; node-llama-cpp and vectra stay external.
 */
import { createInterface } from "node:readline";
import { flushAllVectorStores, vectorOps } from "./vector/host-ops";
import { HostServer } from "./host-server";
import { runtimeCheck } from "./runtime-check";
import type { ClientMessage, HostMessage } from "../engine/client/host-protocol";

// Anything a library prints must not corrupt the protocol stream.
const toStderr = (...args: unknown[]): void => {
  process.stderr.write(args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" ") + "\n");
};
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;

const writeMessage = (msg: HostMessage): void => {
  process.stdout.write(JSON.stringify(msg) + "\n");
};

// Text indexes the client opened: their in-memory changes are saved at shutdown (vector stores track their own).
const textFolders = new Set<string>();
const folderOf = (params: unknown): string | null => {
  const folder = (params as { folder?: unknown } | null)?.folder;
  return typeof folder === "string" && folder !== "" ? folder : null;
};
const ops: Record<string, (params: unknown) => Promise<unknown>> = { ...vectorOps, "runtime.check": runtimeCheck };
for (const op of ["text.open", "text.update"]) {
  ops[op] = async (params) => {
    const result = await vectorOps[op](params);
    const folder = folderOf(params);
    if (folder) textFolders.add(folder);
    return result;
  };
}
ops["text.close"] = async (params) => {
  const result = await vectorOps["text.close"](params);
  const folder = folderOf(params);
  if (folder) textFolders.delete(folder);
  return result;
};

/** Writes every open vector and text index to disk, so a shutdown or a closed pipe loses no index writes. */
async function flushIndexes(): Promise<void> {
  const texts = [...textFolders].map((folder) => vectorOps["text.save"]({ folder }));
  const results = await Promise.allSettled([flushAllVectorStores(), ...texts]);
  for (const r of results) if (r.status === "rejected") toStderr(`[engine-host] could not save an index at shutdown: ${String(r.reason)}`);
}

let exiting = false;
/** Saves the indexes, then exits (once, whichever of shutdown or a closed pipe comes first). */
function flushAndExit(): void {
  if (exiting) return;
  exiting = true;
  void flushIndexes().finally(() => process.stdout.write("", () => process.exit(0)));
}

const gpuSetting = process.env.VAULT_AGENT_GPU;
/** Tests set a small bound to see a grammar evicted and sent again. */
const grammarTextBytes = Number(process.env.VAULT_AGENT_GRAMMAR_TEXT_BYTES) || undefined;
const server = new HostServer(writeMessage, {
  gpu: gpuSetting === "false" || gpuSetting === "cpu" ? false : "auto",
  grammarTextBytes,
  extraOps: ops,
  beforeShutdown: flushIndexes,
  // The indexes were saved before the reply went out: let the reply flush, then exit.
  onShutdown: () => {
    exiting = true;
    process.stdout.write("", () => process.exit(0));
  },
});

// A failure inside one request must not end the others: log it and keep serving.
process.on("uncaughtException", (err) => toStderr(`[engine-host] uncaught: ${err.stack ?? err.message}`));
process.on("unhandledRejection", (err) => toStderr(`[engine-host] unhandled rejection: ${String(err)}`));

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let msg: ClientMessage;
  try {
    msg = JSON.parse(line) as ClientMessage;
  } catch {
    toStderr(`[engine-host] ignored a line that is not JSON: ${line.slice(0, 200)}`);
    return;
  }
  if ((msg.type !== "request" && msg.type !== "abort") || typeof msg.id !== "number") {
    toStderr(`[engine-host] ignored a message without a type and numeric id: ${line.slice(0, 200)}`);
    return;
  }
  server.handle(msg);
});
// The client went away (plugin unloaded, Obsidian quit): nothing is left to serve.
lines.on("close", flushAndExit);

writeMessage({ type: "ready", pid: process.pid });
