/**
 * Engine host entry: a child process speaking newline-delimited JSON on stdin/stdout (see protocol.ts).
 * stdout carries only protocol lines — console output is sent to stderr, which the client keeps as
 * the host's log. Bundled by esbuild as a separate script; node-llama-cpp and vectra stay external.
 */
import { createInterface } from "node:readline";
import { vectorOps } from "../vector/host-ops";
import { HostServer } from "./host-server";
import type { ClientMessage, HostMessage } from "./protocol";

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

const gpuSetting = process.env.VAULT_AGENT_GPU;
const server = new HostServer(writeMessage, {
  gpu: gpuSetting === "false" || gpuSetting === "cpu" ? false : "auto",
  extraOps: vectorOps,
  onShutdown: () => {
    // Let the reply flush, then exit.
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
lines.on("close", () => process.exit(0));

writeMessage({ type: "ready", pid: process.pid });
