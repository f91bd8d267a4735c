/**
 * llama.cpp's own multi-machine path: `llama-server --rpc` with the model's layers on a `ggml-rpc-server` worker
 * (here both on 127.0.0.1), and a full agent turn through the llama.cpp server engine on top.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { composeHeadless } from "../../../src/node/compose";
import { requireLlamaServer, startLlamaServer, startRpcServer, type RunningServer } from "../../helpers/llama-server";
import { testModelPath } from "../../helpers/test-model";
import { copyVault } from "../agent/scripted-helpers";

const bin = requireLlamaServer("the RPC (multi-machine) test");

describe.skipIf(!bin)("llama-server --rpc against a ggml-rpc-server worker", () => {
  let worker: Awaited<ReturnType<typeof startRpcServer>>;
  let server: RunningServer;

  beforeAll(async () => {
    worker = await startRpcServer(bin!);
    // -ngl 99: every layer goes to the RPC device; -lv 4 makes the server log where each buffer lives.
    server = await startLlamaServer(bin!, await testModelPath(), ["-c", "2048", "-np", "1", "--rpc", worker.endpoint, "-ngl", "99", "-lv", "4"]);
  });
  afterAll(async () => {
    await server?.stop();
    await worker?.stop();
  });

  it("the model's weights and KV cache live on the worker, and an agent turn completes through the server", async () => {
    expect(server.log()).toContain(`RPC0[${worker.endpoint}] model buffer size`);
    expect(server.log()).toContain(`RPC0[${worker.endpoint}] KV buffer size`);
    const headless = await composeHeadless({ vault: copyVault(), server: { kind: "llama-server", url: server.url } });
    try {
      const r = await headless.agent.runTurn("read my Inbox note");
      expect(["done", "round-cap"]).toContain(r.outcome);
      expect(r.constraint).toBe("gbnf");
      expect(r.tokensOut).toBeGreaterThan(0);
      expect(worker.log()).toContain("Accepted client connection");
    } finally {
      await headless.close();
    }
  });
});
