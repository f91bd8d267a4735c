/** "Ask about this PDF": the page the PDF view shows and the pages after it, attached to the next message with their links. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Plugin as RealPlugin, Workspace } from "obsidian";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";
import { nodePdfText } from "../../../src/node/pdf/node-pdf-text";
import { makePdf } from "../../../src/node/pdf/make-pdf";
import { pdfExcerpt } from "../../../src/core/pdf/pdf-excerpt";
import { activePdf } from "../../../src/plugin/pdf/active-pdf";
import { registerCommands } from "../../../src/plugin/commands";
import type { ChatSession } from "../../../src/plugin/chat/chat-session";
import { Plugin } from "../../fakes/app";
import { fakeApp } from "../../fakes/fake-app";
import { MemoryBackend } from "../../fakes/vault";

class TestPlugin extends Plugin {}

let root: string;
let vault: FolderVault;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "ask-about-pdf-"));
  await writeFile(join(root, "Manual.pdf"), makePdf(Array.from({ length: 5 }, (_, i) => [`Chapter ${i + 1}`, `Step ${i + 1}: tighten the valve by hand.`])));
  await writeFile(join(root, "Scan.pdf"), makePdf([{ image: true }, { image: true }]));
  vault = new FolderVault(root, { watch: false });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("pdfExcerpt", () => {
  it("attaches the open page and the pages after it, each headed by its link, and says where the rest is", async () => {
    const excerpt = await pdfExcerpt(vault, nodePdfText(), "Manual.pdf", 3, 90);
    expect(excerpt.label).toBe("Manual.pdf (pages 3–4)");
    expect(excerpt.text).toBe(
      'The PDF "Manual.pdf" has 5 pages; the user has page 3 open. Cite pages as their links. Page 5 can be read with pdf:read.\n\n' +
        "[[Manual.pdf#page=3]]\nChapter 3\nStep 3: tighten the valve by hand.\n\n[[Manual.pdf#page=4]]\nChapter 4\nStep 4: tighten the valve by hand.",
    );
  });

  it("says in one sentence that a scan has no text layer", async () => {
    const excerpt = await pdfExcerpt(vault, nodePdfText(), "Scan.pdf", 1);
    expect(excerpt.text).toMatch(/These pages have no text layer \(a scanned image\), so their text cannot be read; text recognition \(OCR\) is not supported\.$/);
  });
});

describe("Ask about this PDF", () => {
  it("finds the PDF in the PDF view and the page it shows, and nothing in a note's view", () => {
    const pdfView = { getViewType: () => "pdf", file: { path: "Manual.pdf", extension: "pdf" }, viewer: { child: { pdfViewer: { page: 4 } } } };
    expect(activePdf({ getMostRecentLeaf: () => ({ view: pdfView }) } as unknown as Workspace)).toEqual({ path: "Manual.pdf", page: 4 });
    const noPage = { ...pdfView, viewer: undefined };
    expect(activePdf({ getMostRecentLeaf: () => ({ view: noPage }) } as unknown as Workspace)).toEqual({ path: "Manual.pdf", page: 1 });
    const markdown = { getViewType: () => "markdown", file: { path: "A.md", extension: "md" } };
    expect(activePdf({ getMostRecentLeaf: () => ({ view: markdown }) } as unknown as Workspace)).toBeNull();
  });

  it("is offered only with a PDF open, and attaches its pages to the next message, then opens the chat", async () => {
    const { fake } = fakeApp(new MemoryBackend({ "A.md": "alpha\n" }));
    const plugin = new TestPlugin(fake, { id: "vault-agent", name: "Vault Agent", version: "0", minAppVersion: "1.8.7", description: "", author: "" });
    const attachments: { path: string; label: string; text?: string }[] = [];
    let opened = 0;
    let open: { path: string; page: number } | null = null;
    registerCommands(plugin as unknown as RealPlugin, {
      session: { attach: (a: { path: string; label: string; text?: string }) => attachments.push(a) } as unknown as ChatSession,
      openChat: async () => void opened++,
      index: () => undefined,
      pdf: { active: () => open, excerpt: (path, page) => pdfExcerpt(vault, nodePdfText(), path, page) },
    });
    expect(fake.commands.isAvailable("vault-agent:ask-about-pdf")).toBe(false);
    open = { path: "Manual.pdf", page: 5 };
    expect(fake.commands.executeCommandById("vault-agent:ask-about-pdf")).toBe(true);
    await expect.poll(() => opened).toBe(1);
    expect(attachments).toHaveLength(1);
    expect(attachments[0].path).toBe("Manual.pdf");
    expect(attachments[0].label).toBe("Manual.pdf (page 5)");
    expect(attachments[0].text).toContain("[[Manual.pdf#page=5]]\nChapter 5");
  });
});
