/**
 * Which families the per-family tests (test/integration/families) run. Each family costs a model load and
 * a few dozen grammar generations per file — minutes on a busy 2-core machine — so `npm test` runs the
 * fast half: phi3.5 (a SentencePiece vocabulary, a Jinja template), llama3.2 (byte-level BPE, the Llama 3.2
 * wrapper) and qwen3 (the Qwen wrapper, <think> blocks). The slow half — the large vocabularies of gemma2
 * and gemma4 (with Gemma 4's own thinking channel), smollm3 and qwen2.5 — took 460–660 s each across the
 * two files under a load average of 25–29, against 160–380 s for these. CI (.ci/run) sets
 * VAULT_AGENT_FAMILIES=all for all ten (the seven attention families and the hybrid qwen3.5, lfm2 and
 * granite4h); a comma list picks others (`VAULT_AGENT_FAMILIES=gemma4`).
 */
import { FAMILY_IDS, type FamilyId } from "../../src/node/test-model/families";

/** The families `npm test` runs when VAULT_AGENT_FAMILIES is not set. */
export const DEFAULT_FAMILIES: readonly FamilyId[] = ["phi3.5", "llama3.2", "qwen3"];

/** The families to test for this value of VAULT_AGENT_FAMILIES ("all", a comma list, or unset). */
export function testedFamilies(value = process.env.VAULT_AGENT_FAMILIES): readonly FamilyId[] {
  const wanted = value?.trim();
  if (!wanted) return DEFAULT_FAMILIES;
  if (wanted === "all") return FAMILY_IDS;
  const names = wanted.split(",").map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(FAMILY_IDS as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`VAULT_AGENT_FAMILIES names unknown families (${unknown.join(", ")}); use "all" or some of ${FAMILY_IDS.join(", ")}.`);
  return names as FamilyId[];
}
