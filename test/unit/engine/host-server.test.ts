/** The host's request handling in-process: dispatch, extra ops, errors as replies (no model needed). */
import { describe, expect, it } from "vitest";
import { EngineError } from "../../../src/core/ports/engine";
import { HostServer } from "../../../src/host/host-server";
import type { HostMessage } from "../../../src/engine/client/host-protocol";

function serverWith(extraOps: Record<string, (params: unknown) => Promise<unknown>>) {
  const sent: HostMessage[] = [];
  const server = new HostServer((m) => sent.push(m), { gpu: false, extraOps });
  const reply = async (id: number): Promise<HostMessage> => {
    for (let i = 0; i < 200; i++) {
      const found = sent.find((m) => m.type !== "event" && m.type !== "ready" && m.id === id);
      if (found) return found;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no reply for request ${id}`);
  };
  return { server, sent, reply };
}

describe("HostServer", () => {
  it("dispatches ops named by the extra-op table (the memory layer's vector ops)", async () => {
    const { server, reply } = serverWith({ "vector.echo": async (p) => ({ echoed: p }) });
    server.handle({ type: "request", id: 1, op: "vector.echo", params: { a: 1 } });
    expect(await reply(1)).toEqual({ type: "result", id: 1, result: { echoed: { a: 1 } } });
  });

  it("turns a failing op into an error reply, keeping an EngineError's code", async () => {
    const { server, reply } = serverWith({
      "vector.fail": async () => {
        throw new EngineError("The index is locked; close the other window.", "internal");
      },
      "vector.crash": async () => {
        throw new TypeError("cannot read x of undefined");
      },
    });
    server.handle({ type: "request", id: 1, op: "vector.fail", params: {} });
    server.handle({ type: "request", id: 2, op: "vector.crash", params: {} });
    expect(await reply(1)).toEqual({ type: "error", id: 1, error: { message: "The index is locked; close the other window.", code: "internal" } });
    const second = await reply(2);
    expect(second.type === "error" && second.error.message).toContain('The engine failed on "vector.crash": cannot read x of undefined');
  });

  it("answers model ops with no_model before a model is loaded, and status without one", async () => {
    const { server, reply } = serverWith({});
    server.handle({ type: "request", id: 1, op: "countTokens", params: { text: "x" } });
    server.handle({ type: "request", id: 2, op: "status", params: {} });
    const first = await reply(1);
    expect(first.type === "error" && first.error.code).toBe("no_model");
    const second = await reply(2);
    expect(second.type === "result" && second.result).toMatchObject({ loaded: false, conversations: 0 });
  });

  it("ignores an abort for a request it does not know", () => {
    const { server, sent } = serverWith({});
    server.handle({ type: "abort", id: 99 });
    expect(sent).toEqual([]);
  });
});
