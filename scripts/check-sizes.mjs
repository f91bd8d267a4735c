// Size limits (STYLE.md, issue 21): every function in src/ fits in 150 lines and every file in 800, so each
// fits a screen or two. Lists every breach and exits 1 when there is one. Data tables (files that are a
// literal list, not code) are exempt, and only those named below.
// It also holds a built main.js to its limit (scripts/bundle-limit.mjs: 1,024 KiB): the one given with --bundle, or,
// checking src, the repository's main.js when a release build of it is there (a development build is not judged).
// Usage: node scripts/check-sizes.mjs [folder, default src] [--bundle FILE] [--json]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { bundleReport } from "./bundle-limit.mjs";

const MAX_FUNCTION_LINES = 150;
const MAX_FILE_LINES = 800;
/** Data tables, exempt from both limits: keep this list short, and each entry a literal table. */
const DATA_TABLES = new Set([]);

const root = join(import.meta.dirname, "..");

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** A repository-relative name for files of this repository, the full path for any other. */
function displayName(path) {
  const rel = relative(root, path).split("\\").join("/");
  return rel.startsWith("../") ? path : rel;
}

/** What a reader would call this function: its own name, or the name it is assigned to, with its class. */
function functionName(node) {
  const own = node.name && ts.isIdentifier(node.name) ? node.name.text : node.name?.getText();
  let name = own;
  if (!name && ts.isConstructorDeclaration(node)) name = "constructor";
  if (!name && node.parent && (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent) || ts.isPropertyDeclaration(node.parent))) name = node.parent.name.getText();
  name ??= "(anonymous)";
  const member = ts.isPropertyDeclaration(node.parent) ? node.parent : node;
  const owner = ts.isClassLike(member.parent) ? member.parent.name?.text : undefined;
  return owner ? `${owner}.${name}` : name;
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node);

function check(path) {
  const text = readFileSync(path, "utf8");
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const name = displayName(path);
  const breaches = [];
  const fileLines = file.getLineAndCharacterOfPosition(text.length).line + (text.endsWith("\n") ? 0 : 1);
  if (fileLines > MAX_FILE_LINES) breaches.push({ file: name, line: 1, kind: "file", name, lines: fileLines, limit: MAX_FILE_LINES });
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > MAX_FUNCTION_LINES) breaches.push({ file: name, line: start + 1, kind: "function", name: functionName(node), lines, limit: MAX_FUNCTION_LINES });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return breaches;
}

const args = process.argv.slice(2);
const bundleAt = args.indexOf("--bundle");
const folderArg = args.find((a, i) => !a.startsWith("--") && !(bundleAt >= 0 && i === bundleAt + 1));
const folder = folderArg ?? join(root, "src");
const files = sourceFiles(folder).filter((p) => !DATA_TABLES.has(displayName(p)));
const breaches = files.flatMap(check);
const repoBundle = join(root, "main.js");
const bundle = bundleAt >= 0 ? args[bundleAt + 1] : folderArg === undefined && existsSync(repoBundle) ? repoBundle : undefined;
let bundleError = null;
let bundleNote = "";
if (bundleAt >= 0 && (!bundle || !existsSync(bundle))) bundleError = `--bundle needs a built file, and ${bundle ?? "none"} does not exist; run npm run build first.`;
else if (bundle) {
  const report = bundleReport(bundle, displayName(bundle));
  bundleError = report.problem;
  bundleNote = report.development ? `${displayName(bundle)} is a development build; npm run build checks the size of a release one.` : `${displayName(bundle)}: ${(report.size / 1024).toFixed(1)} KiB, within its limit.`;
}
if (args.includes("--json")) {
  process.stdout.write(JSON.stringify({ files: files.length, breaches, bundle: bundle === undefined ? undefined : { path: bundle, problem: bundleError } }) + "\n");
} else {
  for (const b of breaches) process.stdout.write(`${b.file}:${b.line}  ${b.kind === "file" ? "file" : `function ${b.name}`}: ${b.lines} lines (limit ${b.limit})\n`);
  const where = relative(root, folder) || ".";
  process.stdout.write(`${breaches.length ? `${breaches.length} over the size limits in ${files.length} files of ${where}.` : `All ${files.length} files of ${where} within the size limits.`}\n`);
  if (bundleError) process.stdout.write(`${bundleError}\n`);
  else if (bundleNote) process.stdout.write(`${bundleNote}\n`);
}
process.exitCode = breaches.length || bundleError ? 1 : 0;
