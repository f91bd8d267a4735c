/**
 * The checks of a task, judged on what a run leaves: its final answer, and the vault folder compared with the
 * fixture it was copied from. Each check returns a result with a sentence saying what was wrong, so a report names
 * the check that failed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseYaml, splitFrontmatter } from "../../../core/memory/frontmatter";
import { inScope, type AnswerCheck, type VaultCheck } from "./task-file";

/** One check's verdict. `skipped` only for prose checks without a judge: never a pass. */
export interface CheckResult {
  check: string;
  status: "pass" | "fail" | "skipped";
  /** Why it failed or was skipped. */
  detail?: string;
}

/** Case- and space-insensitive form for literal answer checks. */
function fold(text: string): string {
  return text.normalize("NFC").toLowerCase().replace(/\s+/g, " ");
}

/** A literal answer check's verdict; prose checks are judged elsewhere (see judge.ts). */
export function checkAnswer(check: Exclude<AnswerCheck, { prose: string }>, answer: string | null): CheckResult {
  const text = fold(answer ?? "");
  if ("contains" in check) {
    const ok = text.includes(fold(check.contains));
    return { check: `answer contains "${check.contains}"`, status: ok ? "pass" : "fail", ...(ok ? {} : { detail: quoteAnswer(answer) }) };
  }
  if ("any_of" in check) {
    const ok = check.any_of.some((s) => text.includes(fold(s)));
    return { check: `answer contains one of ${check.any_of.map((s) => `"${s}"`).join(", ")}`, status: ok ? "pass" : "fail", ...(ok ? {} : { detail: quoteAnswer(answer) }) };
  }
  if ("lacks" in check) {
    const ok = !text.includes(fold(check.lacks));
    return { check: `answer lacks "${check.lacks}"`, status: ok ? "pass" : "fail", ...(ok ? {} : { detail: quoteAnswer(answer) }) };
  }
  const ok = new RegExp(check.regex, "iu").test(answer ?? "");
  return { check: `answer matches /${check.regex}/`, status: ok ? "pass" : "fail", ...(ok ? {} : { detail: quoteAnswer(answer) }) };
}

function quoteAnswer(answer: string | null): string {
  if (answer === null) return "there was no answer";
  return `the answer was "${answer.length > 160 ? `${answer.slice(0, 160)}…` : answer}"`;
}

/** A vault check's verdict over the run's folder (`vault`) and the fixture it was copied from. */
export function checkVault(check: VaultCheck, vault: string, fixture: string): CheckResult {
  const read = (p: string): Buffer | null => (existsSync(join(vault, p)) && statSync(join(vault, p)).isFile() ? readFileSync(join(vault, p)) : null);
  if ("exists" in check) return verdict(`${check.exists} exists`, read(check.exists) !== null, "it does not");
  if ("absent" in check) return verdict(`${check.absent} is absent`, read(check.absent) === null, "it is still there");
  if ("unchanged" in check) {
    const before = existsSync(join(fixture, check.unchanged)) ? readFileSync(join(fixture, check.unchanged)) : null;
    const after = read(check.unchanged);
    const same = before === null ? after === null : after !== null && before.equals(after);
    return verdict(`${check.unchanged} unchanged`, same, after === null ? "it is gone" : before === null ? "it was created" : "its bytes changed");
  }
  const bytes = read(check.path);
  if (bytes === null) return { check: `${check.path}: ${describe(check)}`, status: "fail", detail: "the note does not exist" };
  const text = bytes.toString("utf8");
  if ("contains" in check) return verdict(`${check.path} contains "${check.contains}"`, text.includes(check.contains), "it does not");
  if ("lacks" in check) return verdict(`${check.path} lacks "${check.lacks}"`, !text.includes(check.lacks), "it still contains it");
  if ("matches" in check) return verdict(`${check.path} matches /${check.matches}/`, new RegExp(check.matches, "mu").test(text), "it does not");
  const yaml = splitFrontmatter(text).yaml;
  const props = yaml === null ? {} : parseYaml(yaml);
  const wrong = Object.entries(check.frontmatter).filter(([key, want]) => !sameValue(props[key], want));
  return verdict(
    `${check.path} frontmatter ${JSON.stringify(check.frontmatter)}`,
    wrong.length === 0,
    wrong.map(([key]) => `${key} is ${props[key] === undefined ? "missing" : JSON.stringify(props[key])}`).join(", "),
  );
}

function describe(check: VaultCheck): string {
  return Object.entries(check).filter(([k]) => k !== "path").map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ");
}

function verdict(check: string, ok: boolean, why: string): CheckResult {
  return ok ? { check, status: "pass" } : { check, status: "fail", detail: why };
}

/** Equality with types: 3 is not "3", true is not "true"; lists compare item by item; null matches a missing key. */
function sameValue(actual: unknown, want: unknown): boolean {
  if (want === null) return actual === null || actual === undefined;
  if (Array.isArray(want)) return Array.isArray(actual) && actual.length === want.length && want.every((w, i) => sameValue(actual[i], w));
  if (typeof want === "object") return typeof actual === "object" && actual !== null && JSON.stringify(actual) === JSON.stringify(want);
  return actual === want;
}

/** Every visible file under a folder (dot-folders such as the config folder and `.trash` left out), path → bytes. */
export function snapshotFolder(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel))) {
      if (name.startsWith(".")) continue;
      const p = rel ? `${rel}/${name}` : name;
      if (statSync(join(dir, p)).isDirectory()) walk(p);
      else out.set(p, readFileSync(join(dir, p)));
    }
  };
  walk("");
  return out;
}

/** The paths a run changed (created, edited or removed) compared with the fixture. */
export function changedPaths(fixture: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  const changed: string[] = [];
  for (const [p, bytes] of fixture) if (!after.get(p)?.equals(bytes)) changed.push(p);
  for (const p of after.keys()) if (!fixture.has(p)) changed.push(p);
  return changed.sort();
}

/** The changed paths that lie outside a task's scope. */
export function outsideScope(changed: readonly string[], scope: readonly string[]): string[] {
  return changed.filter((p) => !inScope(p, scope));
}
