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

/** The index, its first listing (awaited before each turn until it succeeds) and the end of its subscription. */
export function vaultPathsFor(vault: VaultPort, ctx: ToolContext): { paths: VaultPathIndex; ensure: () => Promise<void>; stop: () => void } {
  const paths = new VaultPathIndex((p) => toolsMayName(p, ctx));
  // Events that arrive before the first listing are applied to it (the listing is taken after subscribing).
  const stop = vault.onChange((change) => paths.apply(change));
  let loading: Promise<void> | null = null;
  const ensure = (): Promise<void> => {
    if (paths.ready) return Promise.resolve();
    loading ??= vault
      .list()
      .then((files) => paths.load(files.map((f) => f.path)))
      .catch(() => {
        loading = null; // Listed again before the next turn; until then nothing is grounded.
      });
    return loading;
  };
  return { paths, ensure, stop };
}
