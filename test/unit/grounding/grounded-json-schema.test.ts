/**
 * The grounded envelope as JSON Schema (OpenAI-compatible servers), checked with real ajv on the real catalog: per note
 * in context its headings and keys only, the vault's paths once in `$defs`, free text beyond the enum limit with the
 * gatekeeper's sentence after generation, and an edit's text that is not in the note refused with its nearest lines.
 */
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { SubsetCache } from "../../../src/core/grammar";
import { withoutVaultEnums } from "../../../src/core/grammar/grounded-json-schema";
import { MAX_ENUM_PATHS } from "../../../src/core/grammar/subset-cache";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { checkNoteEdit, checkPathsExist, nearestLines } from "../../../src/core/gatekeeper/grounding-policy";
import type { GroundingContext } from "../../../src/core/ports/agent";
import { ToolRegistry } from "../../../src/tools/registry";
import { createToolCatalog } from "../../../src/tools";
import { noNoteAt } from "../../../src/tools/tool-error";
import { missCause, runMisses } from "../../../src/node/eval/tasks/ground-misses";

const PATHS = ["Projects/Alpha.md", "Projects/Beta.md", "Inbox.md", "Daily/2024-05-01.md"];
const ALPHA = { path: "Projects/Alpha.md", text: "---\nstatus: active\n---\n# Alpha\nLaunch on Friday.\n## Risks\nBudget is tight.\n", headings: ["Alpha", "Risks"], keys: ["status"] };
const CONTEXT: GroundingContext = { notes: [ALPHA] };
const envelope = (calls: object[]) => ({ thought: "", status: "Task", message_to_user: null, tool_calls: calls });

function setup(extra: string[] = []) {
  const registry = new ToolRegistry(createToolCatalog());
  const index = new VaultPathIndex();
  index.load([...PATHS, ...extra]);
  const cache = new SubsetCache(registry.grammarTools());
  cache.setVaultPaths(index);
  return { registry, index, cache };
}

function validator(schema: Record<string, unknown>) {
  const validate = new Ajv2020({ strict: false }).compile(schema);
  return (calls: object[]) => validate(envelope(calls));
}

describe("grounded JSON Schema", () => {
  it("admits for the note in context only its headings and its properties' keys, with either spelling of its path", () => {
    const { cache } = setup();
    const ok = validator(cache.jsonSchema(["vault:read", "frontmatter:get"], "dynamic", CONTEXT));
    expect(ok([{ name: "vault:read", args: { path: "Projects/Alpha.md", heading: "Risks" } }])).toBe(true);
    expect(ok([{ name: "vault:read", args: { path: "Projects/Alpha", heading: "Alpha" } }])).toBe(true);
    expect(ok([{ name: "vault:read", args: { path: "Projects/Alpha.md", heading: "Launch plan" } }])).toBe(false);
    expect(ok([{ name: "frontmatter:get", args: { path: "Projects/Alpha.md", key: "status" } }])).toBe(true);
    expect(ok([{ name: "frontmatter:get", args: { path: "Projects/Alpha.md", key: "owner" } }])).toBe(false);
    // A note outside the context: its path must exist, its heading cannot be known to the schema.
    expect(ok([{ name: "vault:read", args: { path: "Projects/Beta.md", heading: "Anything" } }])).toBe(true);
    expect(ok([{ name: "vault:read", args: { path: "Projects/Gamma.md" } }])).toBe(false);
    expect(ok([{ name: "vault:read", args: { path: "Projects/Beta" } }])).toBe(false); // the generic enum holds the vault's spellings
  });

  it("puts the vault's paths and the paths outside the context in $defs once, however many tools name a path", () => {
    const { cache } = setup();
    const schema = cache.jsonSchema(["vault:read", "vault:delete", "links:backlinks", "note:outline", "vault:edit"], "dynamic", CONTEXT);
    const defs = schema.$defs as Record<string, { enum: string[] }>;
    expect([...defs.vaultPaths.enum].sort()).toEqual([...PATHS].sort());
    expect(defs.otherPaths.enum).not.toContain(ALPHA.path);
    expect(JSON.stringify(schema).split(JSON.stringify(PATHS[2])).length - 1).toBe(2); // once in each shared enum
  });

  it("an edit of the note in context keeps find free (no JSON Schema says substring): the turn loop refuses it after generation", () => {
    const { cache } = setup();
    const ok = validator(cache.jsonSchema(["vault:edit"], "dynamic", CONTEXT));
    expect(ok([{ name: "vault:edit", args: { path: "Projects/Alpha.md", find: "Budget is tigth.", replace: "x" } }])).toBe(true);
  });

  it(`past ${MAX_ENUM_PATHS} paths the generic path is free text, and the gatekeeper refuses a missing one naming the nearest`, () => {
    const { cache, index, registry } = setup(Array.from({ length: MAX_ENUM_PATHS }, (_, i) => `Notes/Note ${i}.md`));
    const schema = cache.jsonSchema(["vault:read"], "dynamic", CONTEXT);
    expect(JSON.stringify(schema)).not.toContain("Notes/Note 1.md");
    const ok = validator(schema);
    expect(ok([{ name: "vault:read", args: { path: "Notes/Note 12.md" } }])).toBe(true);
    expect(ok([{ name: "vault:read", args: { path: "Notes/Nite 12.md" } }])).toBe(true);
    const sentence = checkPathsExist(registry.get("vault:read")!.definition, { path: "Notes/Nite 12.md" }, index);
    expect(sentence).toMatch(/^There is no note at "Notes\/Nite 12.md"; the nearest existing paths are "Notes\/Note 12.md"/);
    // The note in context keeps its own variant with its headings.
    expect(JSON.stringify(schema)).toContain('"enum":["Alpha","Risks"]');
  });

  it("keeps within OpenAI's quota: 15,000 characters for an enum of more than 250 values, 1,000 values in all", () => {
    const long = setup(Array.from({ length: 300 }, (_, i) => `Archive/A rather long folder name/Meeting notes ${String(i).padStart(3, "0")}.md`));
    expect(long.cache.jsonSchema(["vault:delete"], "dynamic").$defs).toBeUndefined();
    const many = setup(Array.from({ length: 496 }, (_, i) => `N/${i}.md`));
    const defs = many.cache.jsonSchema(["vault:read", "vault:delete"], "dynamic", CONTEXT).$defs as Record<string, { enum: string[] }>;
    // The paths outside context (499) fit; all paths (500) would pass 1,000 values with them, so vault:delete's path is free.
    expect(defs.otherPaths.enum).toHaveLength(499);
    expect(defs.vaultPaths).toBeUndefined();
  });

  it("opens the shared enums for a server that refused them, keeping the rest of the schema", () => {
    const { cache } = setup();
    const open = withoutVaultEnums(cache.jsonSchema(["vault:read"], "dynamic", CONTEXT));
    const ok = validator(open);
    expect(ok([{ name: "vault:read", args: { path: "Projects/Gamma.md" } }])).toBe(true);
    expect(JSON.stringify(open)).toContain('"enum":["Alpha","Risks"]');
  });
});

describe("edit text after generation", () => {
  const edit = new ToolRegistry(createToolCatalog()).get("vault:edit")!.definition;

  it("refuses text that is not in the note with its nearest lines, to copy exactly", () => {
    const sentence = checkNoteEdit(edit, ALPHA.path, { path: ALPHA.path, find: "Budget is tigth", replace: "Budget is fine" }, ALPHA.text, ALPHA.text);
    expect(sentence).toMatch(/^The text to find does not occur in "Projects\/Alpha.md"; the nearest lines are "Budget is tight." and "[^"]+", so call vault:edit again with find copied exactly from the note \(nothing was changed\)\.$/);
  });

  it("offers runs of as many lines as the text has", () => {
    expect(nearestLines(ALPHA.text, "## Risk\nBudget is tight", 1)).toEqual(["## Risks\nBudget is tight."]);
  });

  it("lets text that is in the note through", () => {
    expect(checkNoteEdit(edit, ALPHA.path, { path: ALPHA.path, find: "Budget is tight.", replace: "x" }, ALPHA.text, ALPHA.text)).toBeNull();
  });
});

describe("recovery rounds by cause (eval --suite tasks)", () => {
  const edit = new ToolRegistry(createToolCatalog()).get("vault:edit")!.definition;
  const { index, registry } = setup();

  it("reads the cause from the sentences the tools, the gatekeeper and the turn loop give", () => {
    expect(missCause(noNoteAt("Nope.md").message)).toBe("path");
    expect(missCause(checkPathsExist(registry.get("vault:read")!.definition, { path: "Nope.md" }, index)!)).toBe("path");
    expect(missCause(checkNoteEdit(edit, ALPHA.path, { find: "zzz" }, ALPHA.text, ALPHA.text)!)).toBe("find");
    expect(missCause(checkNoteEdit(edit, ALPHA.path, { find: "Launch" }, ALPHA.text, "# Alpha\n")!)).toBe("find");
    expect(missCause(checkNoteEdit(edit, ALPHA.path, { find: "Launch" }, undefined, ALPHA.text)!)).toBe("unread");
  });

  it("counts a round as recovery only when another round followed it, by its ground miss first", () => {
    const result = (round: number, i: number, message: string, ok = false) => ({ type: "tool-result" as const, turnId: "t", callId: `r${round}c${i}`, name: "vault:read", ok, content: message, ...(ok ? {} : { error: { code: "path_refused" as const, message } }) });
    const events = [result(1, 0, "Tool failed for another reason."), result(1, 1, noNoteAt("Nope.md").message), result(2, 0, "fine", true), result(3, 0, noNoteAt("Gone.md").message)];
    const misses = runMisses(events, 3);
    expect(misses.calls.path).toBe(2);
    expect(misses.calls.other).toBe(1);
    expect(misses.rounds.path).toBe(1); // round 1 (its path miss, not its other failure); round 3 was the last
    expect(misses.rounds.other).toBe(0);
  });
});
