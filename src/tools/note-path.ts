/**
 * How tools read a path the model wrote: trimmed, forward slashes, no leading `/` or `./`, `.md`
 * added when there is no extension (models say "Projects/Alpha"). The gatekeeper applies the path
 * policy; this guard is the handlers' own last line: never the config dir, hidden folders or `..`.
 */
import type { NoteMetadata } from "../core/ports/vault";
import type { ToolContext } from "../core/protocol/tool";
import { noNoteAt, ToolError } from "./tool-error";

export function cleanPath(raw: string): string {
  let p = raw.trim().replace(/\\/g, "/").replace(/\/{2,}/g, "/");
  while (p.startsWith("./")) p = p.slice(2);
  p = p.replace(/^\/+/, "").replace(/\/+$/, "");
  // [[Wikilink]] syntax is a common slip.
  const link = /^!?\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/.exec(p);
  if (link) p = link[1].trim();
  return p;
}

/** A note path: cleaned, with `.md` when no extension was given. */
export function notePath(raw: string): string {
  const p = cleanPath(raw);
  const name = p.split("/").pop() ?? p;
  // `.canvas` is an extension too, as the path grammar admits canvas files by their full name.
  return /\.(?:[A-Za-z0-9]{1,5}|canvas)$/.test(name) ? p : `${p}.md`;
}

/** A folder path: cleaned, "" for the vault root. */
export function folderPath(raw: string | undefined): string {
  if (!raw) return "";
  const p = cleanPath(raw);
  return p === "." ? "" : p;
}

/** Refuses the config dir, hidden folders, `..` and excluded folders; returns the path unchanged. */
export function guardPath(path: string, ctx: ToolContext): string {
  const segments = path.split("/");
  if (segments.includes("..")) throw new ToolError(`"${path}" climbs out of the vault; use a vault-relative path.`, "refused");
  if (path === ctx.vault.configDir || path.startsWith(`${ctx.vault.configDir}/`) || segments.some((s) => s.startsWith("."))) {
    throw new ToolError(`"${path}" is in a hidden or configuration folder, which tools never touch; pick a note in the vault.`, "refused");
  }
  if (isExcluded(path, ctx)) throw new ToolError(`"${path}" is in a folder excluded in settings; the agent may not use it.`, "refused");
  return path;
}

/** Whether a path lies in one of the excluded folders. */
export function isExcluded(path: string, ctx: ToolContext): boolean {
  return ctx.settings.excludedFolders.some((f) => {
    const folder = folderPath(f);
    return folder !== "" && (path === folder || path.startsWith(`${folder}/`));
  });
}

/** The note's name without folder and `.md`, as a wikilink would write it. */
export function noteName(path: string): string {
  return (path.split("/").pop() ?? path).replace(/\.md$/, "");
}

/** The guarded path of a note the model named, with its metadata; a clear not_found error when there is none. */
export async function noteWithMetadata(raw: string, ctx: ToolContext): Promise<{ path: string; meta: NoteMetadata }> {
  const path = guardPath(notePath(raw), ctx);
  const meta = await ctx.vault.metadata(path);
  if (!meta) throw noNoteAt(path);
  return { path, meta };
}
