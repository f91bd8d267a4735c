/**
 * Path policy for every path a model supplies: normalized, relative to the vault, inside it, never in the
 * config folder or an excluded folder. Refusals carry a sentence the model can act on.
 */

export interface PathPolicyOptions {
  /** The vault's config folder (`.obsidian`). */
  configDir: string;
  /** Folders the agent must not touch, vault-relative. */
  excludedFolders: readonly string[];
}

export type PathCheck = { ok: true; path: string } | { ok: false; reason: string };

/** Normalizes like Obsidian's normalizePath: forward slashes, no duplicate or edge slashes, NFC. */
export function normalizeVaultPath(input: string): string {
  let p = input.normalize("NFC").trim().replace(/\\/g, "/").replace(/\/+/g, "/");
  p = p
    .split("/")
    .filter((seg) => seg !== ".")
    .join("/");
  return p.replace(/^\/+|\/+$/g, "");
}

function under(path: string, folder: string): boolean {
  const f = normalizeVaultPath(folder).toLowerCase();
  if (!f) return false;
  const p = path.toLowerCase();
  return p === f || p.startsWith(f + "/");
}

export function checkVaultPath(input: string, options: PathPolicyOptions): PathCheck {
  const raw = input.trim();
  if (raw.includes("\0")) return { ok: false, reason: `The path "${raw.replace(/\0/g, "")}" contains a NUL character; write a plain vault path.` };
  if (/^([a-zA-Z]:|[\\/]|~)/.test(raw) || /^[a-z]+:\/\//i.test(raw)) {
    return { ok: false, reason: `The path "${raw}" is absolute; use a path relative to the vault root, like "Projects/Alpha.md".` };
  }
  if (raw.replace(/\\/g, "/").split("/").some((seg) => seg.trim() === "..")) {
    return { ok: false, reason: `The path "${raw}" uses ".." and could leave the vault; use a path from the vault root without "..".` };
  }
  const path = normalizeVaultPath(raw);
  if (under(path, options.configDir)) {
    return { ok: false, reason: `The path "${path}" is inside the vault's settings folder ${options.configDir}, which the agent never touches; pick a note path.` };
  }
  for (const folder of options.excludedFolders) {
    if (under(path, folder)) return { ok: false, reason: `The folder "${normalizeVaultPath(folder)}" is excluded from the agent in settings; pick a note outside it.` };
  }
  return { ok: true, path };
}
