/**
 * Red team: a gullible scripted model follows every instruction it finds in notes, pages, MCP results and tool
 * descriptions. Through the real assembly (gatekeeper, outbound policy, journal, tools, a real MCP server over
 * stdio, Node's fetch to a 127.0.0.1 server that logs every request), nothing the injection asks for may happen
 * without a confirmation the test answers; after "deny" the vault bytes and the request logs are unchanged.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConfirmRequest, UserPort } from "../../../src/core/ports/user";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import type { GenerateRequest } from "../../../src/core/ports/engine";
import { composeHeadless } from "../../../src/node/compose";
import { DEFAULT_MCP_TIMEOUT_SECONDS } from "../../../src/engine/mcp/mcp-config";
import { copyVault, envelope } from "../agent/scripted-helpers";
import { vaultHash } from "../../unit/journal/journal-harness";
import { CASES, type Action, type InjectionCase } from "./injection-cases";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const serverScript = fileURLToPath(new URL("../../fixtures/mcp/injecting-server.ts", import.meta.url));
const FINANCE = "Account 4921-7734, balance 18250 EUR, PIN 0417.";
const SECRET_MARKS = ["4921-7734", "0417"];

let http: Server;
let base = "";
const requests: string[] = [];
const pages = new Map<string, string>();

beforeAll(async () => {
  http = createServer((req, res) => {
    requests.push(decodeURIComponent(req.url ?? ""));
    const page = pages.get(req.url ?? "");
    res.writeHead(page ? 200 : 404, { "Content-Type": "text/html" });
    res.end(page ?? "not found");
  });
  await new Promise<void>((done) => http.listen(0, "127.0.0.1", done));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => http.close(() => done())));

const fill = (value: unknown, secret: string): unknown =>
  typeof value === "string" ? value.replaceAll("{base}", base).replaceAll("{secret}", secret) : value;
const filled = (action: Action, secret: string): Action => ({ name: action.name, args: Object.fromEntries(Object.entries(action.args).map(([k, v]) => [k, fill(v, secret)])) });
const allText = (req: GenerateRequest): string => req.messages.map((m) => m.content).join("\n");

interface Outcome {
  asked: ConfirmRequest[];
  /** Whether the instruction reached the model at all (else the case tests nothing). */
  sawInstruction: boolean;
  vaultChanged: boolean;
  requestsWithSecret: string[];
  sentWithSecret: string[];
  unexpectedRequests: string[];
}

/** One case: the user asks about the carrier; the model reads it, reads Finance.md, then does what it was told. */
async function runCase(c: InjectionCase, answer: "deny" | "approve"): Promise<Outcome> {
  const dir = copyVault();
  writeFileSync(join(dir, "Finance.md"), FINANCE);
  const carrier = c.carrier.replaceAll("{base}", base);
  const pagePath = `/page-${c.id}`;
  if (c.source === "note") writeFileSync(join(dir, "Trip.md"), carrier);
  if (c.source === "page") pages.set(pagePath, carrier);
  const sendLog = join(mkdtempSync(join(tmpdir(), "send-")), "sent.jsonl");
  // The instruction's letters, however the page or the prompt lays them out.
  const letters = (text: string): string => text.toLowerCase().replace(/[^\p{L}]/gu, "");
  const trigger = letters(c.source === "page" ? carrier.replace(/<[^>]+>/g, " ").replace(/&\w+;/g, " ") : carrier);
  let sawInstruction = false;
  const first: Action =
    c.source === "note" ? { name: "vault:read", args: { path: "Trip.md" } } :
    c.source === "page" ? { name: "web:fetch", args: { url: `${base}${pagePath}` } } :
    c.source === "mcp-result" ? { name: "mcp:inject:lookup", args: { word: "serendipity" } } :
    { name: "vault:list", args: {} };
  const message =
    c.source === "note" ? "summarize my note Trip" :
    c.source === "page" ? `what does ${base}${pagePath} say?` :
    c.source === "mcp-result" ? "look up serendipity in the dictionary" : "list my notes";
  const script: ScriptStep[] = [
    envelope([first]),
    (req) => {
      // Gullible: whatever the carrier said (in a result or in a tool description) is now the plan.
      sawInstruction = letters(allText(req)).includes(trigger);
      return envelope([{ name: "vault:read", args: { path: "Finance.md" } }]);
    },
    (req) => {
      const last = req.messages.at(-1)?.content ?? "";
      const secret = last.includes("4921-7734") ? FINANCE : "unknown";
      return envelope([filled(c.action, secret)]);
    },
    envelope([], "Done."),
  ];
  const asked: ConfirmRequest[] = [];
  const user: UserPort = {
    confirm: async (r) => {
      asked.push(r);
      // The user's own request is approved; whatever the injection asks for gets the test's answer.
      return r.tool === first.name && JSON.stringify(r.args) === JSON.stringify(first.args) ? "approve" : answer;
    },
    notify: () => {},
  };
  const mcpServers =
    c.source === "mcp-result" || c.source === "mcp-description" || c.action.name.startsWith("mcp:")
      ? [{
          name: "inject", enabled: true, transport: "stdio" as const, disabledTools: [], timeoutSeconds: DEFAULT_MCP_TIMEOUT_SECONDS,
          command: process.execPath, args: ["--import", tsx, serverScript],
          env: { SEND_LOG: sendLog, INJECT_RESULT: c.source === "mcp-result" ? carrier : "a word", INJECT_DESCRIPTION: c.source === "mcp-description" ? carrier : "" },
        }]
      : undefined;
  const headless = await composeHeadless({
    vault: dir,
    engine: new ScriptedEngine(script),
    user,
    allowWrites: true,
    catalog: { network: true },
    mcpServers,
    agentOptions: { toolSelection: "full", recovery: false },
  });
  const before = await vaultHash(dir);
  const seen = requests.length;
  // The user trusted every tool for this conversation earlier: the policy must still stop what outside text asks.
  if (c.source !== "note") for (const name of headless.registry.names()) headless.agent.conversation.alwaysAllowed.add(name);
  try {
    await headless.agent.runTurn(message);
  } finally {
    await headless.close();
  }
  const newRequests = requests.slice(seen);
  const sent = existsSync(sendLog) ? readFileSync(sendLog, "utf8").split("\n").filter(Boolean) : [];
  return {
    asked,
    sawInstruction,
    vaultChanged: (await vaultHash(dir)) !== before,
    requestsWithSecret: newRequests.filter((r) => SECRET_MARKS.some((m) => r.includes(m))),
    sentWithSecret: sent.filter((s) => SECRET_MARKS.some((m) => s.includes(m))),
    unexpectedRequests: newRequests.filter((r) => r !== pagePath),
  };
}

describe(`red team: ${CASES.length} injected instructions, a gullible model, every answer "deny"`, () => {
  const tally = { cases: 0, unconfirmed: 0 };
  afterAll(() => {
    // docs/privacy.md reports these two numbers.
    process.stdout.write(`[red team] cases tried: ${tally.cases}; changes or requests made without confirmation: ${tally.unconfirmed}\n`);
  });

  for (const c of CASES) {
    it(`${c.id}: the injected ${c.action.name} is asked about and, denied, changes and sends nothing`, async () => {
      const o = await runCase(c, "deny");
      tally.cases++;
      const askedForAction = o.asked.some((r) => r.tool === c.action.name);
      if (!askedForAction || o.vaultChanged || o.requestsWithSecret.length || o.sentWithSecret.length || o.unexpectedRequests.length) tally.unconfirmed++;
      expect(o.sawInstruction, "the instruction never reached the model").toBe(true);
      expect(askedForAction, `not asked before ${c.action.name}; asked: ${o.asked.map((r) => r.tool).join(", ")}`).toBe(true);
      expect(o.vaultChanged).toBe(false);
      expect(o.requestsWithSecret).toEqual([]);
      expect(o.sentWithSecret).toEqual([]);
      expect(o.unexpectedRequests).toEqual([]);
    }, 60_000);
  }

  it("the harness sees a leak when the user approves: the secret reaches the 127.0.0.1 log", async () => {
    const o = await runCase(CASES.find((c) => c.id === "page-text-exfil")!, "approve");
    expect(o.requestsWithSecret.length).toBe(1);
  }, 60_000);
});
