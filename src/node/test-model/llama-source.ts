/**
 * The llama.cpp source that node-llama-cpp's npm package ships as a git bundle, cloned once into
 * `<cache>/llama.cpp/<commit>` (the same place scripts/build-llama-server.sh uses). Family test models
 * read its real vocabulary files (`models/ggml-vocab-*.gguf`) and chat templates
 * (`models/templates/*.jinja`) from there; nothing of it is committed.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** `${VAULT_AGENT_CACHE:-~/.cache/vault-agent}`: caches shared by every checkout on this machine. */
export function vaultAgentCacheDir(): string {
  return process.env.VAULT_AGENT_CACHE || join(homedir(), ".cache", "vault-agent");
}

/** node-llama-cpp's bundle of its llama.cpp source. */
export function llamaBundlePath(): string {
  return join(repoRoot, "node_modules", "node-llama-cpp", "llama", "gitRelease.bundle");
}

let commitMemo: string | undefined;

/** The commit the bundle's HEAD points at. */
export function llamaSourceCommit(): string {
  if (commitMemo) return commitMemo;
  const bundle = llamaBundlePath();
  if (!existsSync(bundle)) throw new Error(`node-llama-cpp's llama.cpp source bundle is missing (${bundle}); run npm install first.`);
  const heads = execFileSync("git", ["bundle", "list-heads", bundle], { encoding: "utf8" });
  const head = heads.split("\n").map((l) => l.trim().split(/\s+/)).find((p) => p[1] === "HEAD");
  if (!head) throw new Error(`The llama.cpp bundle ${bundle} has no HEAD.`);
  commitMemo = head[0];
  return commitMemo;
}

/** Folder of the cloned llama.cpp source, cloning the bundle on first use (temp folder, then rename). */
export function llamaSourceDir(): string {
  const commit = llamaSourceCommit();
  const dir = join(vaultAgentCacheDir(), "llama.cpp", commit);
  if (existsSync(join(dir, "models"))) return dir;
  mkdirSync(dirname(dir), { recursive: true });
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  execFileSync("git", ["clone", "-q", llamaBundlePath(), temp], { stdio: ["ignore", "ignore", "inherit"] });
  execFileSync("git", ["-C", temp, "checkout", "-q", commit], { stdio: ["ignore", "ignore", "inherit"] });
  try {
    renameSync(temp, dir);
  } catch (err) {
    // Another process finished the same clone first.
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(join(dir, "models"))) throw err;
  }
  return dir;
}
