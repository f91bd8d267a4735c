/** How the agent cites a note: `[[Folder/Note]]` (Obsidian resolves a path without `.md`), optionally to a heading. */
export function wikilink(path: string, subpath?: string): string {
  return `[[${path.replace(/\.md$/, "")}${subpath ? `#${subpath}` : ""}]]`;
}
