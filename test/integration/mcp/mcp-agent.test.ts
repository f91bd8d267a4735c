/**
 * MCP tools in agent turns, with the three real servers from node_modules started over stdio by the real client:
 * every tool compiles, a scripted turn calls a tool and reads its result, confirmation only for effectful tools,
 * Stop cancels a running call at the server, a killed server gives one sentence and works again after its restart,
 * and an `isError` result is corrected by the recovery loop.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ConfirmRequest, UserPort } from "../../../src/core/ports/user";
import { createTransport } from "../../../src/engine/mcp/mcp-connection";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { composeHeadless, type HeadlessAgent, type HeadlessOptions } from "../../../src/node/compose";
import { copyVault, envelope, EventLog } from "../agent/scripted-helpers";
import { join } from "node:path";
import { realServers, type RealServers } from "../../helpers/mcp-servers";

const open: HeadlessAgent[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

/** A person who approves everything and remembers what they were asked. */
function approvingUser(): UserPort & { asked: ConfirmRequest[]; notices: string[] } {
  const asked: ConfirmRequest[] = [];
  const notices: string[] = [];
  return {
    asked,
    notices,
    async confirm(request) {
      asked.push(request);
      return "approve";
    },
    notify(message) {
      notices.push(message);
    },
  };
}

async function setup(script: ScriptStep[] | ((servers: RealServers) => ScriptStep[]), extra: Partial<HeadlessOptions> = {}) {
  const servers = realServers();
  // A large context: the prompt lists every offered tool (the full catalog here) with its description.
  const engine = new ScriptedEngine(typeof script === "function" ? script(servers) : script, { contextSize: 32_768 });
  const user = approvingUser();
  const sent: { server: string; message: JSONRPCMessage }[] = [];
  const headless = await composeHeadless({
    vault: copyVault(),
    engine,
    user,
    allowWrites: true,
    memory: false,
    mcpServers: servers.configs,
    agentOptions: { toolSelection: "full" },
    mcpOptions: {
      backoffMs: [200],
      // The real transport, watched: tests read what the client sent (cancellations).
      transport: async (config, fetchImpl) => {
        const t = await createTransport(config, fetchImpl);
        const send = t.send.bind(t);
        t.send = (message, options) => {
          sent.push({ server: config.name, message });
          return send(message, options);
        };
        return t;
      },
    },
    ...extra,
  });
  open.push(headless);
  return { headless, engine, user, servers, sent, agent: headless.agent };
}

describe("MCP tools in agent turns (real servers over stdio)", () => {
  it("registers every tool of the three servers, each schema compiled (exact or relaxed, none refused)", async () => {
    const { headless, user } = await setup([]);
    const reports = [...headless.mcpCatalog!.reports.values()].flat();
    const byServer = (s: string) => reports.filter((r) => r.server === s);
    expect(byServer("everything").length).toBeGreaterThanOrEqual(10);
    expect(byServer("filesystem").map((r) => r.tool)).toEqual(expect.arrayContaining(["read_text_file", "write_file", "edit_file", "list_directory"]));
    expect(byServer("memory").map((r) => r.tool)).toEqual(expect.arrayContaining(["create_entities", "read_graph", "search_nodes", "delete_entities"]));
    expect(reports.filter((r) => r.status === "refused")).toEqual([]);
    for (const r of reports) {
      expect(r.name).toMatch(/^mcp:(everything|filesystem|memory):[a-z0-9][a-z0-9_-]*$/);
      expect(headless.registry.has(r.name), r.name).toBe(true);
      // The subset cache compiles a grammar for each registered MCP tool.
      expect(headless.grammars.get([r.name], "dynamic").gbnf).toContain(JSON.stringify(r.name).slice(1, -1));
    }
    const relaxed = reports.filter((r) => r.status === "relaxed");
    // Printed so the report states exact vs relaxed per tool.
    console.log(`MCP schemas: ${reports.length} tools, ${reports.length - relaxed.length} exact, ${relaxed.length} relaxed: ${relaxed.map((r) => `${r.name} (${r.details.join("; ")})`).join(", ")}`);
    expect(user.notices).toEqual([]);
  });

  it("a scripted turn calls a read-only MCP tool of a trusted server without confirmation and the model reads its result", async () => {
    const { agent, engine, user } = await setup(
      (servers) => [
        envelope([{ name: "mcp:everything:get-sum", args: { a: 2, b: 40 } }]),
        envelope([{ name: "mcp:filesystem:read_text_file", args: { path: join(servers.fsRoot, "notes", "hello.txt") } }]),
        envelope([], "2 + 40 = 42, and the file says hello."),
      ],
      { settings: { trustedMcpServers: ["everything", "filesystem"] } },
    );
    const log = new EventLog();
    const r = await agent.runTurn("add 2 and 40, then read notes/hello.txt", { onEvent: log.listener });
    const results = log.of("tool-result");
    expect(results[0]).toMatchObject({ name: "mcp:everything:get-sum", ok: true });
    expect(results[0].content).toContain("42");
    expect(user.asked).toEqual([]);
    // The model's next prompt carries the server's answer.
    expect(engine.requests[1].messages.map((m) => m.content).join("\n")).toContain("42");
    expect(results[1]).toMatchObject({ name: "mcp:filesystem:read_text_file", ok: true });
    // Outside text reaches the model inside a marked data block.
    expect(results[1].content).toContain("Hello from the filesystem server.\n");
    expect(r.outcome).toBe("done");
  });

  it("a read-only MCP tool of a server not marked trusted asks first, with the arguments that would leave", async () => {
    const { agent, user } = await setup([envelope([{ name: "mcp:everything:get-sum", args: { a: 2, b: 40 } }]), envelope([], "42.")]);
    const log = new EventLog();
    await agent.runTurn("add 2 and 40", { onEvent: log.listener });
    expect(user.asked.map((a) => a.tool)).toEqual(["mcp:everything:get-sum"]);
    expect(user.asked[0].args).toEqual({ a: 2, b: 40 });
    expect(log.of("tool-result")[0]).toMatchObject({ name: "mcp:everything:get-sum", ok: true });
  });

  it("asks before effectful MCP tools with the arguments shown, marks destructive ones, and never for read-only ones of a trusted server", async () => {
    const entity = { name: "Ada", entityType: "person", observations: ["wrote the first program"] };
    const { agent, user } = await setup(
      [
        envelope([{ name: "mcp:memory:create_entities", args: { entities: [entity] } }]),
        envelope([{ name: "mcp:memory:read_graph", args: {} }]),
        envelope([{ name: "mcp:memory:delete_entities", args: { entityNames: ["Ada"] } }]),
        envelope([], "Done."),
      ],
      { settings: { trustedMcpServers: ["memory"] } },
    );
    const log = new EventLog();
    await agent.runTurn("remember Ada, show the graph, then forget her", { onEvent: log.listener });
    expect(user.asked.map((a) => [a.tool, a.effect])).toEqual([
      ["mcp:memory:create_entities", "write"],
      ["mcp:memory:delete_entities", "destructive"],
    ]);
    expect(user.asked[0].args).toEqual({ entities: [entity] });
    expect(user.asked[0].preview).toContain('"wrote the first program"');
    expect(user.asked[0].origin).toBe("MCP server “memory”, tool create_entities");
    expect(user.asked[1].summary).toContain("destructive");
    const results = log.of("tool-result");
    expect(results.map((e) => e.ok)).toEqual([true, true, true]);
    expect(results[1].content).toContain("wrote the first program");
  });

  it("refuses effectful MCP tools when writes are off, with a sentence naming the server", async () => {
    const { agent } = await setup(
      [envelope([{ name: "mcp:memory:create_entities", args: { entities: [{ name: "B", entityType: "t", observations: [] }] } }]), envelope([], "ok")],
      { allowWrites: false },
    );
    const log = new EventLog();
    await agent.runTurn("remember B", { onEvent: log.listener });
    const result = log.of("tool-result")[0];
    expect(result).toMatchObject({ ok: false, error: { code: "write_not_permitted" } });
    expect(result.content).toContain("MCP server “memory”");
  });

  it("Stop during a running MCP call ends the turn at once and sends the server a cancellation", async () => {
    const controller = new AbortController();
    const { agent, sent } = await setup([envelope([{ name: "mcp:everything:trigger-long-running-operation", args: { duration: 30, steps: 30 } }]), envelope([], "x")]);
    const started = Date.now();
    const r = await agent.runTurn("run the long operation", {
      signal: controller.signal,
      onEvent: (e) => {
        if (e.type === "tool-call") setTimeout(() => controller.abort(), 400);
      },
    });
    expect(r.outcome).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(15_000);
    const call = sent.find((s) => "method" in s.message && s.message.method === "tools/call");
    const cancel = sent.find((s) => "method" in s.message && s.message.method === "notifications/cancelled");
    expect(cancel?.server).toBe("everything");
    expect((cancel?.message as unknown as { params: { requestId: unknown } }).params.requestId).toBe((call?.message as unknown as { id: unknown }).id);
  });

  it("a server killed mid-call gives one clear sentence, restarts, and the next turn works", async () => {
    const { agent, headless } = await setup([
      envelope([{ name: "mcp:everything:trigger-long-running-operation", args: { duration: 30, steps: 30 } }]),
      envelope([], "The server stopped."),
      envelope([{ name: "mcp:everything:get-sum", args: { a: 1, b: 2 } }]),
      envelope([], "3"),
    ]);
    const connection = headless.mcp!.connection("everything")!;
    const pid = connection.pid!;
    const log = new EventLog();
    await agent.runTurn("run the long operation", {
      onEvent: (e) => {
        log.listener(e);
        if (e.type === "tool-call") setTimeout(() => process.kill(pid, "SIGKILL"), 400);
      },
    });
    const failed = log.of("tool-result")[0];
    expect(failed.ok).toBe(false);
    expect(failed.content).toMatch(/^MCP server "everything" stopped during the call to trigger-long-running-operation[^]*; it restarts by itself, so ask again in a moment\.$/);
    expect(failed.content.split(/(?<=\.) /).length).toBe(1);
    const next = new EventLog();
    const r = await agent.runTurn("add 1 and 2", { onEvent: next.listener });
    expect(next.of("tool-result")[0]).toMatchObject({ name: "mcp:everything:get-sum", ok: true });
    expect(next.of("tool-result")[0].content).toContain("3");
    expect(connection.pid).not.toBe(pid);
    expect(r.outcome).toBe("done");
  });

  it("an isError result goes back as a refusal and the recovery loop corrects the call", async () => {
    const { agent, engine } = await setup(
      (servers) => [
        envelope([{ name: "mcp:filesystem:read_text_file", args: { path: join(servers.fsRoot, "notes", "missing.txt") } }]),
        envelope([{ name: "mcp:filesystem:read_text_file", args: { path: join(servers.fsRoot, "notes", "hello.txt") } }]),
        envelope([], "It says hello."),
      ],
      { settings: { trustedMcpServers: ["filesystem"] } },
    );
    const log = new EventLog();
    const r = await agent.runTurn("read notes/missing.txt", { onEvent: log.listener });
    const [refused, fixed] = log.of("tool-result");
    expect(refused).toMatchObject({ ok: false, error: { code: "tool_error" } });
    expect(refused.content).toMatch(/^MCP server "filesystem" reported an error from read_text_file: .*missing\.txt/);
    expect(log.of("error")[0]).toMatchObject({ code: "tool_error", recoverable: true });
    // The retry runs under the failing tool's own grammar, with the server's sentence as the correction.
    expect(engine.requests[1].messages.at(-1)?.content).toContain("Correction: MCP server");
    expect(fixed).toMatchObject({ ok: true });
    expect(fixed.content).toContain("Hello from the filesystem server.\n");
    expect(r.outcome).toBe("done");
  });
});
