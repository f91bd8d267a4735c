/** Helpers for scripted-engine turns over a temp copy of examples/vault. */
import { cpSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentEvent } from "../../../src/core/agent/events";
import type { Envelope, EnvelopeStatus } from "../../../src/core/protocol/envelope";
import { GbnfRecognizer } from "../../../src/core/grammar";
import { createToolCatalog } from "../../../src/tools/index";

export const exampleVault = fileURLToPath(new URL("../../../examples/vault", import.meta.url));

/** A fresh temp copy of examples/vault. */
export function copyVault(): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-vault-"));
  cpSync(exampleVault, dir, { recursive: true });
  return dir;
}

/** Every file's text under a folder (path → content), for "unchanged" checks. */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      const p = rel ? `${rel}/${name}` : name;
      if (statSync(join(dir, p)).isDirectory()) walk(p);
      else out.set(p, readFileSync(join(dir, p), "latin1"));
    }
  };
  walk("");
  return out;
}

/** A compact envelope as the grammar requires it (no whitespace, keys in order). */
export function envelope(
  calls: { name: string; args: Record<string, unknown> }[] = [],
  message: string | null = null,
  status: EnvelopeStatus = calls.length ? "Task" : "Idle",
  thought = calls.length ? "I will use a tool." : "Answering.",
): string {
  const e: Envelope = { thought, status, message_to_user: message, tool_calls: calls };
  return JSON.stringify(e);
}

/** Collects events and gives typed views of them. */
export class EventLog {
  readonly events: AgentEvent[] = [];
  readonly listener = (e: AgentEvent): void => void this.events.push(e);
  of<T extends AgentEvent["type"]>(type: T): Extract<AgentEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
  }
  types(): string[] {
    return this.events.map((e) => e.type).filter((t, i, a) => i === 0 || a[i - 1] !== t);
  }
}

/** The tool names a grammar offers: those whose call the grammar's recognizer accepts as a prefix. */
export function grammarTools(gbnf: string | undefined): string[] {
  if (!gbnf) return [];
  const recognizer = new GbnfRecognizer(gbnf);
  const head = '{"thought":"","status":"Task","message_to_user":null,"tool_calls":[{"name":"';
  return createToolCatalog()
    .map((t) => t.name)
    .filter((name) => recognizer.acceptsPrefix(`${head}${name}","args":{`))
    .sort();
}
