/**
 * The README and the docs/ pages link each other: every relative link must reach a file, and every `#anchor` a
 * heading of its target page as GitHub slugs it. The checker itself is tried on pages with planted broken links,
 * so a checker that stopped finding them fails here too.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { brokenLinks, documentationPages, githubSlug, headingAnchors, pageLinks, reachablePages } from "../../helpers/markdown-links";

const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("the links between README.md and docs/", () => {
  const pages = documentationPages(root);

  it("reach an existing file, and each #anchor a heading of its target page", () => {
    expect(pages.length).toBeGreaterThan(5);
    const broken = brokenLinks(pages, root).map((b) => `${b.page}:${b.line} ${b.target}: ${b.reason}`);
    expect(broken).toEqual([]);
  });

  it("are many: the README links the docs pages and they link back", () => {
    // Would fail if the link parser found nothing, which would also make the test above pass vacuously.
    const fromReadme = pageLinks("README.md", readFileSync(join(root, "README.md"), "utf8")).filter((l) => l.target.startsWith("docs/"));
    const back = pages.slice(1).flatMap((p) => pageLinks(p, readFileSync(p, "utf8"))).filter((l) => l.target.startsWith("../README.md"));
    expect(fromReadme.length).toBeGreaterThan(10);
    expect(back.length).toBeGreaterThan(0);
  });

  it("reach every docs page from the README", () => {
    const reached = reachablePages(join(root, "README.md"), pages);
    const orphans = pages.filter((p) => !reached.has(p)).map((p) => relative(root, p));
    expect(orphans).toEqual([]);
  });
});

describe("the link checker", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("slugs headings as GitHub does", () => {
    expect(githubSlug("Engines on another machine")).toBe("engines-on-another-machine");
    expect(githubSlug("Why response_format failed, and when it works.")).toBe("why-response_format-failed-and-when-it-works");
    expect(githubSlug("What's new in 0.2 (beta)?")).toBe("whats-new-in-02-beta");
    expect(githubSlug("Lösche die Datei")).toBe("lösche-die-datei");
    expect([...headingAnchors("# Tests\n\n## Tests\n\n### `npm test` and **CI**\n")]).toEqual(["tests", "tests-1", "npm-test-and-ci"]);
  });

  it("reads no heading or link inside code", () => {
    const text = "```sh\n# on each worker\nsee [a](missing.md)\n```\n\nText `[b](missing.md)` here.\n\n## Real heading\n";
    expect([...headingAnchors(text)]).toEqual(["real-heading"]);
    expect(pageLinks("page.md", text)).toEqual([]);
  });

  it("finds a missing file, a missing heading and an anchor into a non-page, and passes the good links", () => {
    dir = mkdtempSync(join(tmpdir(), "doc-links-"));
    mkdirSync(join(dir, "docs", "images"), { recursive: true });
    writeFileSync(join(dir, "docs", "images", "shot.png"), "");
    writeFileSync(join(dir, "docs", "cli.md"), "# CLI\n\n## `ask` and `eval`\n\nBack to the [README](../README.md#install).\n");
    writeFileSync(
      join(dir, "README.md"),
      [
        "# Vault Agent",
        "",
        '<img src="docs/images/shot.png" alt="a shot">',
        "",
        "## Install",
        "",
        "See [the CLI](docs/cli.md), [ask](docs/cli.md#ask-and-eval), [install](#install) and [the site](https://obsidian.md).",
        "Broken: [gone](docs/gone.md), [no heading](docs/cli.md#no-such-heading), [a picture's anchor](docs/images/shot.png#top), [self](#nowhere).",
      ].join("\n"),
    );
    const pages = [join(dir, "README.md"), join(dir, "docs", "cli.md")];
    const broken = brokenLinks(pages, dir).map((b) => `${b.page}:${b.line} ${b.target}`);
    expect(broken).toEqual(["README.md:8 docs/gone.md", "README.md:8 docs/cli.md#no-such-heading", "README.md:8 docs/images/shot.png#top", "README.md:8 #nowhere"]);
  });

  it("finds a page no link leads to", () => {
    dir = mkdtempSync(join(tmpdir(), "doc-links-"));
    mkdirSync(join(dir, "docs"));
    writeFileSync(join(dir, "README.md"), "# A\n\n[b](docs/b.md)\n");
    writeFileSync(join(dir, "docs", "b.md"), "# B\n\n[back](../README.md)\n");
    writeFileSync(join(dir, "docs", "c.md"), "# C\n");
    const pages = documentationPages(dir);
    const reached = reachablePages(join(dir, "README.md"), pages);
    expect(pages.filter((p) => !reached.has(p)).map((p) => relative(dir!, p))).toEqual([join("docs", "c.md")]);
  });
});
