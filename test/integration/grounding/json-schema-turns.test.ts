/**
 * The grounded JSON Schema through the real agent over a folder vault (FolderVault, the subset cache, the gatekeeper,
 * the handlers): the schema each round sends (what an OpenAI-compatible server gets) is checked with real ajv, and an
 * edit whose text the schema could not constrain is refused after generation with the note's nearest lines.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import type { GenerateRequest } from "../../../src/core/ports/engine";
import { ScriptedEngine, type ScriptStep } from "../../../src/engine/scripted";
import { composeHeadless } from "../../../src/node/compose";
import { copyVault, envelope } from "../agent/scripted-helpers";

const NOW = () => new Date("2026-11-22T10:00:00");

/** The scripted engine as a JSON Schema engine sees a request: no GBNF (an OpenAI-compatible server gets only the schema). */
class SchemaOnlyEngine extends ScriptedEngine {
  override generate(request: GenerateRequest) {
    return super.generate({ ...request, grammar: undefined });
  }
}

async function setup(script: ScriptStep[]) {
  const dir = copyVault();
  const engine = new SchemaOnlyEngine(script);
  const headless = await composeHeadless({ vault: dir, now: NOW, engine, allowWrites: true, agentOptions: { toolSelection: "full" } });
  return { dir, agent: headless.agent };
}

/** Whether the round's JSON Schema admits a call of `name` with these args. */
function admits(request: GenerateRequest, name: string, args: Record<string, unknown>): boolean {
  const validate = new Ajv2020({ strict: false }).compile(request.jsonSchema ?? {});
  return validate({ thought: "", status: "Task", message_to_user: null, tool_calls: [{ name, args }] });
}

describe("grounded JSON Schema in a conversation", () => {
  it("after a read, the round's schema admits only the note's headings; a find not in the note is refused with its nearest line and nothing is written", async () => {
    const seen: Record<string, boolean>[] = [];
    const { agent, dir } = await setup([
      (request) => {
        seen.push({ before: admits(request, "vault:read", { path: "Inbox.md", heading: "Shopping" }) });
        return envelope([{ name: "vault:read", args: { path: "Inbox.md" } }]);
      },
      (request) => {
        const edit = { path: "Inbox.md", find: "Renew car insurence before 1 December", replace: "Renewed car insurance" };
        seen.push({
          edit: admits(request, "vault:edit", edit),
          heading: admits(request, "vault:read", { path: "Inbox.md", heading: "To do" }),
          otherHeading: admits(request, "vault:read", { path: "Inbox.md", heading: "Shopping" }),
          missingNote: admits(request, "vault:read", { path: "Inbux.md" }),
        });
        return envelope([{ name: "vault:edit", args: edit }]);
      },
      envelope([], "Could not edit it."),
    ]);
    const before = readFileSync(join(dir, "Inbox.md"), "utf8");
    const turn = await agent.runTurn("fix the insurance line in my inbox");
    // Before the read the note is not in context: its heading cannot be known. After it, only its own headings.
    // The edit's text is not constrained (no JSON Schema says "text of this note"): the schema admits the misspelt find.
    expect(seen).toEqual([{ before: true }, { edit: true, heading: true, otherHeading: false, missingNote: false }]);
    expect(turn.toolResults[1]).toMatchObject({ ok: false });
    expect(turn.toolResults[1].content).toMatch(/^The text to find does not occur in "Inbox.md"; the nearest lines are "- \[ \] Renew car insurance before 1 December #errand" and /);
    expect(readFileSync(join(dir, "Inbox.md"), "utf8")).toBe(before);
  });
});
