import { afterEach, describe, expect, it } from "vitest";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openFolderMemory } from "../../../src/node/folder-vault/folder-memory";

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "search-ranking-"));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A long FAQ that repeats common words, and the query's content word once. */
function faq(question: string, filler: string, mention: string): string {
  return `# FAQ\n\n${Array.from({ length: 30 }, () => `**${question}?** ${filler}`).join("\n\n")}\n\n${mention}\n`;
}

async function top(vault: string, query: string, k = 3): Promise<string[]> {
  const memory = await openFolderMemory({ vault });
  try {
    await memory.indexer.build();
    return (await memory.search.textSearch(query, k)).map((h) => h.path);
  } finally {
    await memory.close();
  }
}

describe("memory search ranking", () => {
  it("ranks a note titled with the query's word above a long FAQ that repeats the question's common words", async () => {
    const vault = tempDir();
    write(vault, {
      "Tags.md": "Group notes by theme with #project.\n",
      "Help/FAQ.md": faq("how do I use the app for my notes", "You can do this in the settings, and if it does not work, check what you have to do first.", "Tags are explained on their own page."),
      "Help/Sync FAQ.md": faq("how do I use sync to keep my notes", "It is what most of us do when we have a question about the app.", "Sync keeps tags too."),
    });
    expect((await top(vault, "how do I use tags to organize my notes"))[0]).toBe("Tags.md");
  });

  it("weighs aliases and headings above the body", async () => {
    const vault = tempDir();
    write(vault, {
      "Kanban.md": "---\naliases: [Board view]\n---\nColumns of cards.\n",
      "Journal.md": "# Weekly review\n\nWhat went well.\n",
      "Long.md": `${"board view review ".repeat(3)}${"filler words here ".repeat(200)}\n`,
    });
    expect((await top(vault, "board view"))[0]).toBe("Kanban.md");
    expect((await top(vault, "weekly review"))[0]).toBe("Journal.md");
  });

  it("finds Chinese, Japanese and Korean notes from a question with no spaces", async () => {
    const vault = tempDir();
    write(vault, {
      "标签.md": "# 标签\n\n用标签来整理笔记。\n",
      "术语表.md": "# 术语表\n\n- 模板\n- 同步\n- 属性\n",
      "タグ.md": "# タグ\n\nタグでノートを整理します。\n",
      "태그.md": "# 태그\n\n태그로 노트를 정리합니다.\n",
    });
    expect((await top(vault, "如何使用标签来整理笔记", 1))[0]).toBe("标签.md");
    expect((await top(vault, "タグを使ってノートを整理する方法", 1))[0]).toBe("タグ.md");
    expect((await top(vault, "태그를 사용하는 방법", 1))[0]).toBe("태그.md");
  });

  it("prefers the note in the question's language when two languages share a title word", async () => {
    const vault = tempDir();
    write(vault, {
      "de/Tags.md": "# Tags\n\nMit Tags ordnest du die Notizen nach Thema, und die Liste zeigt sie alle.\n",
      "nl/Tags.md": "# Tags\n\nMet tags orden je de notities per onderwerp, en de lijst toont ze allemaal.\n",
      "en/Tags.md": "# Tags\n\nWith tags you group the notes by theme, and the list shows them all.\n",
    });
    expect((await top(vault, "wie funktionieren die Tags", 1))[0]).toBe("de/Tags.md");
    expect((await top(vault, "hoe werken de tags", 1))[0]).toBe("nl/Tags.md");
  });
});

describe("an index written by the previous analysis", () => {
  it("is rebuilt once, with a notice, and then answers what only the new analysis can", async () => {
    const fixture = join(__dirname, "../../fixtures/search-old-index");
    const root = tempDir();
    cpSync(fixture, root, { recursive: true });
    const vault = join(root, "vault");
    const indexDir = join(root, "index");
    // The notes as the old index saw them: same size and modification time, so only the format can make them re-read.
    const manifest = JSON.parse(readFileSync(join(indexDir, "memory-manifest.json"), "utf8")) as { notes: Record<string, [number, number]> };
    for (const [path, [mtime]] of Object.entries(manifest.notes)) utimesSync(join(vault, path), mtime / 1000, mtime / 1000);
    expect(JSON.parse(readFileSync(join(indexDir, "text-index.json"), "utf8"))).toEqual({ version: 3, shards: 16 });

    const open = async (notices: string[]) => {
      const memory = await openFolderMemory({ vault, indexDir, onNotice: (m) => notices.push(m) });
      try {
        const report = await memory.indexer.build();
        return { report, hits: (await memory.search.textSearch("如何使用标签", 3)).map((h) => h.path) };
      } finally {
        await memory.close();
      }
    };
    const first: string[] = [];
    const rebuilt = await open(first);
    expect(first.join(" ")).toMatch(/older version.*rebuilt/);
    expect(rebuilt.report.read).toBe(3);
    expect(rebuilt.hits[0]).toBe("标签.md");
    const head = JSON.parse(readFileSync(join(indexDir, "text-index.json"), "utf8")) as { version: number };
    expect(head.version).toBe(4);
    expect(readdirSync(indexDir).filter((f) => f.startsWith("text-index-")).length).toBe(16);

    // Once: the next open reads nothing and says nothing.
    const second: string[] = [];
    const again = await open(second);
    expect(second).toEqual([]);
    expect(again.report.read).toBe(0);
    expect(again.hits[0]).toBe("标签.md");
  });
});

describe("an update over an indexed vault", () => {
  it("reads neither unchanged notes nor unchanged files skipped for their content", async () => {
    const vault = tempDir();
    write(vault, { "A.md": "# A\n\nhello\n", "Sub/B.md": "text\n" });
    writeFileSync(join(vault, "Bad.md"), Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x0a]));
    writeFileSync(join(vault, "Bin.md"), Buffer.from([0x62, 0x00, 0x6e, 0x0a]));
    const build = async () => {
      const memory = await openFolderMemory({ vault });
      try {
        return await memory.indexer.build();
      } finally {
        await memory.close();
      }
    };
    expect((await build()).read).toBe(4);
    const again = await build();
    expect(again.read).toBe(0);
    expect(again.skipped).toMatchObject({ binary: 1, nonUtf8: 1 });
    writeFileSync(join(vault, "Bad.md"), "now fine\n");
    const fixed = await build();
    expect(fixed.read).toBe(1);
    expect(fixed.notes).toBe(3);
  });
});
