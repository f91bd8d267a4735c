/**
 * The bundled engine host in a folder with no node_modules (a user of a server engine who never installed the
 * built-in runtime): it starts, serves requests that need no runtime, and answers a built-in load with a sentence.
 * (Serving a real server engine from such a host is tested in llama-server.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EngineClient } from "../../../src/engine/client/engine-client";
import { nodeHostLauncher } from "../../../src/engine/client/node-launcher";
import { testModelPath } from "../../helpers/test-model";
import { buildHostBundle } from "../../helpers/host-bundle";

describe("the engine host without node-llama-cpp installed", () => {
  let dir: string;
  let script: string;

  beforeAll(async () => {
    const source = await buildHostBundle();
    // No static import of a runtime package may reach the bundle's top: it would fail before the host says ready.
    expect(source).not.toMatch(/^import [^;]*from ?"(node-llama-cpp|vectra)"/m);
    dir = mkdtempSync(join(tmpdir(), "host-no-runtime-"));
    script = join(dir, "engine-host.mjs");
    writeFileSync(script, source);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("starts, reports its status, and says the built-in runtime is missing instead of crashing", async () => {
    const client = new EngineClient(nodeHostLauncher({ hostScript: script }), { model: { path: await testModelPath() } });
    try {
      const status = (await client.request("status", {})) as { loaded: boolean; gpu: unknown };
      expect(status).toMatchObject({ loaded: false, gpu: false });
      const err = await client.loadModel().catch((e: unknown) => e);
      expect(err).toMatchObject({
        code: "runtime_missing",
        message: expect.stringMatching(/^The built-in engine's runtime \(node-llama-cpp\) is not installed here \(.+\); install it from the settings, or choose a llama\.cpp or OpenAI-compatible server as the engine\.$/),
      });
      // The host lives on: the next request is answered by the same process.
      const pid = client.hostPid;
      await client.request("status", {});
      expect(client.hostPid).toBe(pid);
      expect(client.state).not.toBe("crashed");
    } finally {
      await client.shutdown();
    }
  });
});
