/** The client supervises the host: a dead host fails pending requests clearly and is restarted on the next one. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EngineError } from "../../../src/core/ports/engine";
import type { EngineClient } from "../../../src/engine/client/engine-client";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { testModelPath } from "../../helpers/test-model";

let engine: EngineClient;

beforeAll(async () => {
  engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 1024 } });
});

afterAll(async () => {
  await engine?.shutdown();
});

const longGeneration = (onText: () => void) =>
  engine.generate({
    messages: [{ role: "user", content: "Keep going." }],
    grammar: "root ::= [a-z ]{1500,1999}",
    maxTokens: 1900,
    onText,
  });

describe("engine supervision", () => {
  it("rejects the pending request with a clear error when the host is killed mid-generation", async () => {
    let killed = false;
    const pending = longGeneration(() => {
      if (!killed) {
        killed = true;
        process.kill(engine.hostPid!, "SIGKILL");
      }
    });
    const err = await pending.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineError);
    expect((err as EngineError).code).toBe("host_crashed");
    expect((err as EngineError).message).toMatch(
      /^The engine process stopped unexpectedly \(signal SIGKILL.*\); it will restart on the next request\.$/,
    );
    expect(engine.state).toBe("crashed");
    expect(engine.log.lines().join("\n")).toContain("engine host exited (signal SIGKILL)");
  });

  it("restarts the host and reloads the model on the next request", async () => {
    const result = await engine.generate({ messages: [{ role: "user", content: "Back?" }], maxTokens: 6 });
    expect(result.tokensOut).toBeGreaterThan(0);
    expect(engine.state).toBe("loaded");
  });

  it("shuts the host down cleanly, and starts again lazily afterwards", async () => {
    const pid = engine.hostPid!;
    await engine.shutdown();
    expect(engine.state).toBe("stopped");
    expect(() => process.kill(pid, 0)).toThrow();
    expect(engine.log.lines().join("\n")).toContain("engine host exited (exit code 0)");
    expect(await engine.countTokens("again")).toBeGreaterThan(0);
    expect(engine.hostPid).not.toBe(pid);
  });
});
