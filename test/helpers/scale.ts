/**
 * How many samples the statistical tests draw. `npm test` draws enough to catch a broken grammar or sampler at once;
 * CI (.ci/run sets VAULT_AGENT_TEST_SCALE=full) draws the full counts, several times more, as the release's proof.
 */
export const FULL_SCALE = process.env.VAULT_AGENT_TEST_SCALE === "full";

/** `full` in CI, `quick` in a plain `npm test`. */
export function scaled(full: number, quick: number): number {
  return FULL_SCALE ? full : quick;
}
