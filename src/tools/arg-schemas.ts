/** Zod pieces the tools share, with bounds tight enough to keep the compiled grammars small. */
import * as z from "zod";

/** A vault-relative note path. */
export const pathArg = (what = "Vault-relative path of the note, e.g. Projects/Alpha.md") => z.string().min(1).max(300).describe(what);

/** Note text written by a tool. */
export const contentArg = (what: string, max = 8000) => z.string().max(max).describe(what);

/** How many results to return. */
export const limitArg = (fallback: number, max: number) =>
  z.number().int().min(1).max(max).optional().describe(`How many results to return (default ${fallback}, at most ${max}).`);

/** A heading's text without the leading #s. */
export const headingArg = (what: string) => z.string().min(1).max(200).optional().describe(what);

/** Keys models often use instead of `path`. */
export const PATH_ALIASES: Record<string, string> = {
  file: "path",
  note: "path",
  filename: "path",
  file_path: "path",
  filepath: "path",
  note_path: "path",
  notePath: "path",
};
