/** The vault's paths for grounded args: listed before the first turn, then kept current from the vault's change events. */
import { VaultPathIndex } from "../core/grammar/vault-paths";
import type { ToolContext } from "../core/protocol/tool";
import type { VaultPort } from "../core/ports/vault";

/** A path the tools may name: not in the config folder, a hidden folder or an excluded folder. */
export function toolsMayName(path: string, ctx: Pick<ToolContext, "settings"> & { vault: Pick<VaultPort, "configDir"> }): boolean {
  const segments = path.split("/");
  if (segments.some((s) => s.startsWith(".")) || path === ctx.vault.configDir || path.startsWith(`${ctx.vault.configDir}/`)) return false;
  return !ctx.settings.excludedFolders.some((f) => {
    const folder = f.trim().replace(/\\/g, "/").replace(/^\/+|\/+$/g, "");
    return folder !== "" && (path === folder || path.startsWith(`${folder}/`));
  });
}

/**
 * The index, its listing (awaited before each turn until it succeeds, and again after the excluded folders changed)
 * and the end of its subscription.
 */
export function vaultPathsFor(vault: VaultPort, ctx: ToolContext): { paths: VaultPathIndex; ensure: () => Promise<void>; stop: () => void } {
  const paths = new VaultPathIndex((p) => toolsMayName(p, ctx));
  // Changes follow the tree between listings (a change while a listing is under way may be missed until the next one).
  const stop = vault.onChange((change) => paths.apply(change));
  let loading: Promise<void> | null = null;
  // The excluded folders the tree was listed with: a change in settings lists the vault again.
  let listedWith = "";
  const excludedKey = () => JSON.stringify(ctx.settings.excludedFolders);
  const ensure = (): Promise<void> => {
    if (paths.ready && listedWith === excludedKey()) return Promise.resolve();
    if (paths.ready && !loading) paths.ready = false;
    const key = excludedKey();
    loading ??= vault
      .list()
      .then((files) => {
        paths.load(files.map((f) => f.path));
        listedWith = key;
        loading = null;
      })
      .catch(() => {
        loading = null; // Listed again before the next turn; until then nothing is grounded.
      });
    return loading;
  };
  return { paths, ensure, stop };
}
