/**
 * Path args of a kind (pdf:read's path is a PDF, base tools' a .base file, canvas tools' a .canvas file): the filtered
 * view of the path tree follows every change, the grounded grammar and the JSON Schema admit only files of the kind,
 * and the gatekeeper refuses another kind with the nearest files of the right one.
 */
import Ajv2020 from "ajv/dist/2020";
import { describe, expect, it } from "vitest";
import { GbnfRecognizer, SubsetCache } from "../../../src/core/grammar";
import { VaultPathIndex } from "../../../src/core/grammar/vault-paths";
import { checkPathsExist } from "../../../src/core/gatekeeper/grounding-policy";
import { ToolRegistry } from "../../../src/tools/registry";
import { missCause } from "../../../src/node/eval/tasks/ground-misses";
import { createToolCatalog } from "../../../src/tools";

const PATHS = ["Changelog.md", "Projects/Alpha.md", "Docs/Manual.pdf", "Docs/Scan.PDF", "Bases/Books.base", "Maps/Alpha.canvas", "Files/photo.png"];
const envelope = (calls: object[]) => ({ thought: "", status: "Task", message_to_user: null, tool_calls: calls });

function setup(paths: string[] = PATHS) {
  const registry = new ToolRegistry(createToolCatalog());
  const index = new VaultPathIndex();
  index.load(paths);
  const cache = new SubsetCache(registry.grammarTools());
  cache.setVaultPaths(index);
  return { registry, index, cache };
}

/** A grammar whose root is one JSON string naming a path of the tree. */
function pathRecognizer(index: VaultPathIndex): GbnfRecognizer | null {
  const rules = index.rules();
  return rules && new GbnfRecognizer(`root ::= "\\"" ${rules.root} "\\""\n${rules.text}`);
}

const admitted = (r: GbnfRecognizer | null, path: string) => !!r && r.accepts(JSON.stringify(path));

describe("path args of a kind", () => {
  it("keeps the filtered view current on create, rename and delete of a .pdf, .base and .canvas file", () => {
    const { index } = setup();
    const pdf = index.ofKind(["pdf"]);
    const base = index.ofKind(["base"]);
    const canvas = index.ofKind(["canvas"]);
    expect([...pdf.paths()].sort()).toEqual(["Docs/Manual.pdf", "Docs/Scan.PDF"]);
    expect(index.ofKind(["pdf"])).toBe(pdf); // one view per kind, not one per turn

    index.apply({ kind: "create", path: "Inbox/Invoice.pdf" });
    index.apply({ kind: "create", path: "Bases/Films.base" });
    index.apply({ kind: "create", path: "Maps/Beta.canvas" });
    expect(admitted(pathRecognizer(pdf), "Inbox/Invoice.pdf")).toBe(true);
    expect(admitted(pathRecognizer(base), "Bases/Films.base")).toBe(true);
    expect(admitted(pathRecognizer(canvas), "Maps/Beta.canvas")).toBe(true);

    index.apply({ kind: "rename", oldPath: "Docs/Manual.pdf", path: "Archive/Manual 2024.pdf" });
    index.apply({ kind: "rename", oldPath: "Bases/Books.base", path: "Reading.base" });
    index.apply({ kind: "rename", oldPath: "Maps/Alpha.canvas", path: "Maps/Alpha.md" }); // no longer a canvas
    expect(admitted(pathRecognizer(pdf), "Archive/Manual 2024.pdf")).toBe(true);
    expect(admitted(pathRecognizer(pdf), "Docs/Manual.pdf")).toBe(false);
    expect(admitted(pathRecognizer(base), "Reading.base")).toBe(true);
    expect(admitted(pathRecognizer(base), "Bases/Books.base")).toBe(false);
    expect(admitted(pathRecognizer(canvas), "Maps/Alpha.canvas")).toBe(false);
    expect(admitted(pathRecognizer(canvas), "Maps/Alpha.md")).toBe(false);

    index.apply({ kind: "delete", path: "Inbox/Invoice.pdf" });
    index.apply({ kind: "delete", path: "Maps/Beta.canvas" });
    expect(admitted(pathRecognizer(pdf), "Inbox/Invoice.pdf")).toBe(false);
    expect(canvas.size).toBe(0);
    expect(canvas.rules()).toBeNull();

    // The same language as a view made fresh from the final listing.
    const fresh = new VaultPathIndex();
    fresh.load([...index.paths()]);
    for (const exts of [["pdf"], ["base"], ["canvas"]]) expect([...index.ofKind(exts).paths()].sort()).toEqual([...fresh.ofKind(exts).paths()].sort());
    for (const p of ["Archive/Manual 2024.pdf", "Docs/Scan.PDF", "Changelog.md", "Reading.base"]) expect(admitted(pathRecognizer(pdf), p), p).toBe(admitted(pathRecognizer(fresh.ofKind(["pdf"])), p));
  });

  it("leaves a view untouched by changes to files of other kinds (its printed rules stay as they are)", () => {
    const { index } = setup();
    const pdf = index.ofKind(["pdf"]);
    const before = pdf.rules()!;
    const version = pdf.version;
    index.apply({ kind: "create", path: "Notes/New.md" });
    index.apply({ kind: "rename", oldPath: "Changelog.md", path: "Old/Changelog.md" });
    expect(pdf.version).toBe(version);
    expect(pdf.rules()).toEqual(before);
    // Its rule names are its own: the whole tree's rules and a view's can sit in one grammar.
    expect(before.root).toMatch(/^vpt-kpdf-/);
    expect(index.rules()!.text.split("\n").some((l) => l.startsWith("vpt-kpdf-"))).toBe(false);
  });

  it("admits only files of the tool's kind in the grounded grammar (pdf:read, base:read, base:edit, canvas:read, canvas:edit)", () => {
    const { cache } = setup();
    const r = new GbnfRecognizer(cache.get(["pdf:read", "base:read", "base:edit", "base:query", "canvas:read", "canvas:edit", "vault:read"], "dynamic").gbnf);
    const ok = (name: string, args: object) => r.accepts(JSON.stringify(envelope([{ name, args }])));
    expect(ok("pdf:read", { path: "Docs/Manual.pdf" })).toBe(true);
    expect(ok("pdf:read", { path: "Docs/Scan.PDF" })).toBe(true);
    expect(ok("base:read", { path: "Bases/Books.base" })).toBe(true);
    expect(ok("base:edit", { path: "Bases/Books.base", remove_views: ["Old"] })).toBe(true);
    expect(ok("base:query", { path: "Bases/Books.base" })).toBe(true);
    expect(ok("base:query", {})).toBe(true);
    expect(ok("canvas:read", { path: "Maps/Alpha.canvas" })).toBe(true);
    expect(ok("canvas:edit", { path: "Maps/Alpha.canvas", ops: [{ op: "remove", id: "x" }] })).toBe(true);
    for (const wrong of ["Changelog.md", "Changelog", "Projects/Alpha.md", "Files/photo.png", "Maps/Alpha.canvas", "Bases/Books.base"]) expect(ok("pdf:read", { path: wrong }), wrong).toBe(false);
    for (const wrong of ["Changelog.md", "Docs/Manual.pdf", "Maps/Alpha.canvas"]) {
      expect(ok("base:read", { path: wrong }), wrong).toBe(false);
      expect(ok("base:query", { path: wrong }), wrong).toBe(false);
    }
    for (const wrong of ["Changelog.md", "Bases/Books.base", "Docs/Manual.pdf"]) expect(ok("canvas:read", { path: wrong }), wrong).toBe(false);
    // Notes stay notes: vault:read names any of the vault's paths.
    expect(ok("vault:read", { path: "Changelog" })).toBe(true);
  });

  it("offers no tool whose required path names a kind the vault lacks, until a file of that kind is created", () => {
    const { cache, index, registry } = setup(["Changelog.md", "Projects/Alpha.md"]);
    const call = (name: string, args: object) => JSON.stringify(envelope([{ name, args }]));
    const r = new GbnfRecognizer(cache.get(["pdf:read", "base:query", "vault:read"], "dynamic").gbnf);
    expect(r.accepts(call("pdf:read", { path: "Changelog.md" }))).toBe(false);
    expect(r.accepts(call("vault:read", { path: "Changelog.md" }))).toBe(true);
    // base:query's base is optional: without one it queries the notes.
    expect(r.accepts(call("base:query", {}))).toBe(true);
    expect(r.accepts(call("base:query", { path: "Changelog.md" }))).toBe(false);
    // Only pdf tools offered and none callable: the envelope can still answer without a call.
    expect(new GbnfRecognizer(cache.get(["pdf:read"], "dynamic").gbnf).accepts(JSON.stringify(envelope([])))).toBe(true);
    // The JSON Schema form leaves it out too.
    const validate = new Ajv2020({ strict: false }).compile(cache.jsonSchema(["pdf:read", "vault:read"], "dynamic"));
    expect(validate(envelope([{ name: "pdf:read", args: { path: "Changelog.md" } }]))).toBe(false);
    expect(validate(envelope([{ name: "vault:read", args: { path: "Changelog.md" } }]))).toBe(true);
    // An engine without either (a reply replayed) meets the gatekeeper's sentence.
    const pdfRead = registry.definitions().find((d) => d.name === "pdf:read")!;
    expect(checkPathsExist(pdfRead, { path: "Changelog.md" }, index)).toBe('"Changelog.md" is not a .pdf file and the vault has no .pdf file, so pdf:read cannot be used here.');
    // A PDF created during the conversation: the very next grammar offers pdf:read, on it alone.
    index.apply({ kind: "create", path: "Docs/Manual.pdf" });
    const after = new GbnfRecognizer(cache.get(["pdf:read"], "dynamic").gbnf);
    expect(after.accepts(call("pdf:read", { path: "Docs/Manual.pdf" }))).toBe(true);
    expect(after.accepts(call("pdf:read", { path: "Changelog.md" }))).toBe(false);
    // And goes again with its last PDF.
    index.apply({ kind: "delete", path: "Docs/Manual.pdf" });
    expect(new GbnfRecognizer(cache.get(["pdf:read"], "dynamic").gbnf).accepts(call("pdf:read", { path: "Changelog.md" }))).toBe(false);
  });

  it("refuses a file of the wrong kind after generation, naming the nearest files of the right kind", () => {
    const { index, registry } = setup([...PATHS, "Bases/Films.base", "Reading list.base"]);
    const def = (name: string) => registry.definitions().find((d) => d.name === name)!;
    const wrong = checkPathsExist(def("base:read"), { path: "Changelog.md" }, index)!;
    expect(wrong).toMatch(/^"Changelog\.md" is not a \.base file; the nearest \.base files are "[^"]+\.base", "[^"]+\.base" or "[^"]+\.base", so call base:read again with one of them\.$/);
    for (const p of ["Bases/Books.base", "Bases/Films.base", "Reading list.base"]) expect(wrong).toContain(`"${p}"`);
    expect(checkPathsExist(def("base:edit"), { path: "Bases/Book.base" }, index)).toMatch(/^There is no \.base file at "Bases\/Book\.base"; the nearest \.base files are "Bases\/Books\.base"/);
    expect(checkPathsExist(def("canvas:read"), { path: "Projects/Alpha.md" }, index)).toBe('"Projects/Alpha.md" is not a .canvas file; the nearest .canvas files are "Maps/Alpha.canvas", so call canvas:read again with one of them.');
    expect(checkPathsExist(def("pdf:read"), { path: "Files/photo.png" }, index)).toMatch(/^"Files\/photo\.png" is not a \.pdf file; the nearest \.pdf files are/);
    // The right kind, by its full name, as a link, or without the extension the tool adds.
    for (const path of ["Docs/Manual.pdf", "[[Docs/Manual.pdf]]", "Docs/Manual", "Docs/Scan.PDF"]) expect(checkPathsExist(def("pdf:read"), { path }, index), path).toBeNull();
    expect(checkPathsExist(def("base:read"), { path: "Bases/Films" }, index)).toBeNull();
    expect(checkPathsExist(def("base:query"), {}, index)).toBeNull();
    // The task suite counts each of these sentences as a path that missed the vault.
    for (const [name, path] of [["base:read", "Changelog.md"], ["base:edit", "Bases/Book.base"], ["pdf:read", "Nope.pdf"]]) expect(missCause(checkPathsExist(def(name), { path }, index)!)).toBe("path");
    expect(missCause(checkPathsExist(def("pdf:read"), { path: "Changelog.md" }, setup(["Changelog.md"]).index)!)).toBe("path");
    // canvas:create names a new file (free text): its refusal of another extension is not a miss of the vault.
    expect(missCause('"Notes/a.md" is not a canvas; canvas files end in .canvas.')).toBe("other");
  });

  it("gives OpenAI-compatible servers an enum of the kind's files for those tools", () => {
    const { cache } = setup();
    const schema = cache.jsonSchema(["pdf:read", "base:read", "canvas:read", "vault:read"], "dynamic");
    const defs = schema.$defs as Record<string, { enum?: string[] }>;
    expect(defs.vaultFiles_pdf.enum).toEqual(["Docs/Manual.pdf", "Docs/Scan.PDF"]);
    expect(defs.vaultFiles_base.enum).toEqual(["Bases/Books.base"]);
    expect(defs.vaultFiles_canvas.enum).toEqual(["Maps/Alpha.canvas"]);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    const ok = (name: string, path: string) => validate(envelope([{ name, args: { path } }]));
    expect(ok("pdf:read", "Docs/Manual.pdf")).toBe(true);
    expect(ok("pdf:read", "Changelog.md")).toBe(false);
    expect(ok("base:read", "Changelog.md")).toBe(false);
    expect(ok("canvas:read", "Maps/Alpha.canvas")).toBe(true);
    expect(ok("vault:read", "Changelog.md")).toBe(true);
  });
});
