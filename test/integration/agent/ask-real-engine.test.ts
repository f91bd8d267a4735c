import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../../src/core/agent/events";
import { composeHeadless } from "../../../src/node/compose";
import { testModelPath } from "../../helpers/test-model";
import { copyVault, snapshot } from "./scripted-helpers";

const cli = fileURLToPath(new URL("../../../src/node/cli.ts", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

function ask(args: string[]) {
  return spawnSync(process.execPath, ["--import", tsx, cli, "ask", ...args], { encoding: "utf8", timeout: 240_000 });
}

describe("ask over the real engine host with the generated test model", () => {
  for (const message of ["add oat milk to my Shopping List note", "read my Inbox note"]) {
    it(`"${message}": exits 0, prints a transcript of valid envelopes, and leaves the vault unchanged without --allow-writes`, () => {
      const vault = copyVault();
      const before = snapshot(vault);
      const transcript = join(mkdtempSync(join(tmpdir(), "ask-")), "turn.jsonl");
      const r = ask(["--vault", vault, "--transcript", transcript, "--seed", "1", message]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain("random-weight test model");
      expect(r.stdout).toContain(`> ${message}`);
      expect(r.stdout).toMatch(/\[end\] (done|round-cap) after \d+ round/);
      const events = readFileSync(transcript, "utf8").trim().split("\n").map((l) => JSON.parse(l) as AgentEvent);
      expect(events[0].type).toBe("turn-start");
      expect(events[1].type).toBe("routed");
      const end = events.at(-1)!;
      expect(end.type).toBe("turn-end");
      if (end.type === "turn-end") {
        expect(["done", "round-cap"]).toContain(end.outcome);
        expect(end.tokensOut).toBeGreaterThan(0);
      }
      // Under the grammar every reply was an envelope: never a parse failure or a failed turn.
      const errors = events.filter((e) => e.type === "error");
      expect(errors.filter((e) => e.type === "error" && (e.code === "bad_envelope" || !e.recoverable))).toEqual([]);
      for (const e of events) if (e.type === "tool-result" && !e.ok) expect(["path_refused", "write_not_permitted", "tool_failed", "not_allowed_in_state"]).toContain(e.error?.code);
      expect(snapshot(vault)).toEqual(before);
    });
  }

  it("exits 2 with a sentence for bad usage", () => {
    const r = ask(["hello"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("Give the vault folder with --vault DIR.");
  });

  it("an abort during real generation ends the turn cleanly and the next turn still works", async () => {
    const headless = await composeHeadless({ vault: copyVault(), model: await testModelPath() });
    try {
      const controller = new AbortController();
      const r = await headless.agent.runTurn("hello there, tell me something long", {
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === "thought-delta" || e.type === "message-delta") controller.abort();
        },
      });
      expect(r.outcome).toBe("aborted");
      expect(headless.agent.conversation.entries.map((e) => e.kind)).toEqual(["user", "assistant"]);
      expect(headless.agent.conversation.entries[1]).toMatchObject({ placeholder: "aborted" });
      const next = await headless.agent.runTurn("thanks!");
      expect(next.outcome).toBe("done");
    } finally {
      await headless.close();
    }
  });
});
