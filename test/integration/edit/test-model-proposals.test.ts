/**
 * 1,000 edit proposals from the random-weight test model through the engine host, under the edit grammar, on
 * regions of a real note (a selection, sections, the whole note): every reply is complete, every quoted text is
 * found, and every proposal's changes apply to give exactly the proposed text.
 */
import { afterAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyChanges, proposeEdit, sectionAt, type EditTarget } from "../../../src/core/edit";
import { createNodeEngine } from "../../../src/engine/client/node-launcher";
import { testModelPath } from "../../helpers/test-model";
import { scaled } from "../../helpers/scale";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const PROPOSALS = scaled(1000, 100);

let shutdown: (() => Promise<void>) | undefined;
afterAll(async () => {
  await shutdown?.();
});

function targets(): EditTarget[] {
  const note = readFileSync(join(root, "examples/vault/Recipes/Red Lentil Soup.md"), "utf8");
  const out: EditTarget[] = [{ note, from: 0, to: note.length }];
  for (let at = 0; at < note.length; ) {
    const s = sectionAt(note, at);
    if (s.to > s.from) out.push({ note, from: s.from, to: s.to });
    const next = note.indexOf("\n#", Math.max(s.to, at));
    if (next < 0) break;
    at = next + 1;
  }
  out.push({ note, from: note.indexOf("\n") + 1, to: Math.min(note.length, note.indexOf("\n") + 200) });
  return out;
}

describe("edit proposals from the random test model", () => {
  it(`${PROPOSALS} proposals: 0 quotes not found, 0 incomplete replies, every proposal applies exactly`, { timeout: 1_800_000 }, async () => {
    const engine = createNodeEngine({ model: { path: await testModelPath(), contextSize: 4096, threads: 1 } });
    shutdown = () => engine.shutdown();
    const regions = targets();
    expect(regions.length).toBeGreaterThan(3);
    const failures: string[] = [];
    let changes = 0;
    let edits = 0;
    let rewrites = 0;
    for (let i = 0; i < PROPOSALS; i++) {
      const target = regions[i % regions.length];
      try {
        const p = await proposeEdit(engine, target, "Fix the typos.", { seed: i, temperature: 1, grammar: { maxReplaceChars: 16, maxRewriteChars: 48, rewrite: i % 4 !== 3 ? false : undefined } });
        changes += p.changes.length;
        if (p.reply.startsWith('{"rewrite"')) rewrites++;
        else edits += (JSON.parse(p.reply) as { edits: unknown[] }).edits.length;
        const note = applyChanges(target.note, p.changes, "all");
        if (note !== target.note.slice(0, target.from) + p.proposed + target.note.slice(target.to)) failures.push(`proposal ${i}: changes do not give the proposed text`);
      } catch (err) {
        failures.push(`proposal ${i}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    console.log(`${PROPOSALS} proposals on ${regions.length} regions: ${edits} quoted edits, ${rewrites} rewrites, ${changes} word-level changes, ${failures.length} failures`);
    expect(failures).toEqual([]);
    // Three proposals in four may only quote (the model cannot choose a rewrite there): the quotes are what is tested.
    expect(edits).toBeGreaterThan(PROPOSALS / 4);
  });
});
