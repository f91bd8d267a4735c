/**
 * Child process entry for test/helpers/prepare-models.ts: generates one cached test model.
 * `generate-model.ts family <id>` or `generate-model.ts test <vocab> <seed>`.
 */
import { FAMILY_IDS, type FamilyId } from "../../src/node/test-model/families";
import { cachedFamilyModel, cachedTestModel } from "../../src/node/test-model/model-cache";

const [kind, a, b] = process.argv.slice(2);
if (kind === "family" && (FAMILY_IDS as readonly string[]).includes(a ?? "")) {
  cachedFamilyModel(a as FamilyId);
} else if (kind === "test" && Number(a) > 0 && Number(b) > 0) {
  cachedTestModel({ vocab: Number(a), seed: Number(b) });
} else {
  process.stderr.write(`generate-model: expected "family <${FAMILY_IDS.join("|")}>" or "test <vocab> <seed>", got "${process.argv.slice(2).join(" ")}".\n`);
  process.exitCode = 2;
}
