/**
 * The import graph of src/ and main.ts as the files state it (type-only imports included): no circle of files, and
 * no import between the plugin and the headless code in either direction, nor from the plugin into the engine host.
 * The lint fences refuse a new climbing import as it is written; this reads every file as it is.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/** The repository files a file imports (relative specifiers only; packages are outside the graph). */
function importsOf(file: string, text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.flatMap(({ fileName }) => {
    if (!fileName.startsWith(".")) return [];
    const base = resolve(dirname(file), fileName);
    const found = [`${base}.ts`, base, join(base, "index.ts")].find((p) => {
      try {
        return statSync(p).isFile();
      } catch {
        return false;
      }
    });
    return found ? [found] : [];
  });
}

function importGraph(files: Map<string, string>): Map<string, string[]> {
  return new Map([...files].map(([file, text]) => [file, importsOf(file, text).filter((to) => files.has(to))]));
}

/** Strongly connected components of more than one file, or a file that imports itself (Tarjan). */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        part.push(w);
      } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const files = new Map([...sourceFiles(join(repo, "src")), join(repo, "main.ts")].map((f) => [f, readFileSync(f, "utf8")]));
const graph = importGraph(files);
const rel = (f: string): string => relative(repo, f);
const layerOf = (f: string): string => rel(f).split("/").slice(0, 2).join("/");

describe("the import graph of src/", () => {
  it("has no circle of files", () => {
    expect(circles(graph).map((part) => part.map(rel).join(" -> "))).toEqual([]);
  });

  it.each([
    ["src/node", "src/plugin"],
    ["src/plugin", "src/node"],
    ["src/plugin", "src/host"],
    ["main.ts", "src/host"],
  ])("has no import from %s into %s", (from, to) => {
    const edges = [...graph].flatMap(([file, targets]) => (layerOf(file) === from || rel(file) === from ? targets.filter((t) => layerOf(t) === to).map((t) => `${rel(file)} -> ${rel(t)}`) : []));
    expect(edges).toEqual([]);
  });

  it("finds a circle and a crossing when one is planted", () => {
    const a = join(repo, "src/core/agent/planted-a.ts");
    const b = join(repo, "src/core/agent/planted-b.ts");
    // Two files that import each other, beside the real graph (they need not exist on disk: edges are given).
    const g = new Map<string, string[]>([[a, [b]], [b, [a]], ...graph]);
    expect(circles(g).map((part) => part.map(rel))).toEqual([["src/core/agent/planted-a.ts", "src/core/agent/planted-b.ts"]]);
    const bench = join(repo, "src/node/bench/install.ts");
    const crossing = importsOf(bench, 'import { DiskRuntimeService } from "../../plugin/runtime/runtime-service";').map(layerOf);
    expect(crossing).toEqual(["src/plugin"]);
  });
});
