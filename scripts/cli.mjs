/**
 * `npm run cli`'s entry: runs src/node/cli.ts from a bundle of the TypeScript sources, made with esbuild and kept in
 * node_modules/.cache/vault-agent-cli/, instead of transpiling and resolving every module through tsx on each call
 * (Node and tsx loading ~400 modules took about 0.4 s of CPU before a command started; from the bundle, 0.1 s).
 *
 * - The bundle is made again whenever a file under src/, package.json or this script changes (their sizes and
 *   modification times are its key), so an edit is picked up by the next call, as with tsx.
 * - Each command is a chunk of its own (cli.ts imports `./commands/<name>.ts` lazily), so `search` loads no model,
 *   engine or MCP code. Packages stay in node_modules, loaded by Node as before.
 * - Every `import.meta.url` is the source file's own, so paths made from it (examples/, src/host/main.ts for the
 *   engine host, scripts/) are those tsx gives.
 * - Without esbuild (an install without dev dependencies), or if bundling fails, the CLI runs through tsx as before.
 *   VAULT_AGENT_CLI_TSX=1 asks for tsx.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const entry = join(root, "src", "node", "cli.ts");
const cacheRoot = join(root, "node_modules", ".cache", "vault-agent-cli");
/** A stale bundle younger than this may still be running in another process: left for a later call to remove. */
const KEEP_STALE_MS = 10 * 60 * 1000;

/** A key of everything the bundle is made from: each source's path, size and modification time. */
function sourceKey() {
  const hash = createHash("sha1");
  hash.update(`${root}\n${process.version}\n`);
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const s = statSync(p);
        hash.update(`${relative(root, p)}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  walk(join(root, "src"));
  for (const f of ["package.json", "tsconfig.json", "scripts/cli.mjs"]) {
    const s = statSync(join(root, f), { throwIfNoEntry: false });
    hash.update(`${f}\0${s?.size}\0${s?.mtimeMs}\n`);
  }
  return hash.digest("hex").slice(0, 16);
}

/** Replaces `import.meta.url` in each source with that source's own URL (the bundle lives elsewhere). */
const ownUrl = {
  name: "own-import-meta-url",
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      if (args.path.includes(`${join("node_modules", "")}`)) return undefined;
      const text = readFileSync(args.path, "utf8");
      if (!text.includes("import.meta.url")) return undefined;
      const loader = /\.[cm]?ts$/.test(args.path) ? "ts" : "js";
      return { contents: text.replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href)), loader };
    });
  },
};

/**
 * Node's own resolution for a package's inner module named without its extension ("ajv/dist/2020"), which tsx
 * resolves and Node does not: the bundle names the file ("ajv/dist/2020.js").
 */
const packageFiles = {
  name: "package-files",
  setup(build) {
    build.onResolve({ filter: /^(@[^/]+\/)?[^./@][^/]*\/./ }, (args) => {
      if (args.path.startsWith("node:")) return undefined;
      try {
        // Node names a file without checking it is there.
        if (statSync(fileURLToPath(import.meta.resolve(args.path)), { throwIfNoEntry: false })?.isFile()) return { path: args.path, external: true };
      } catch {
        // Not resolvable as ESM from here: ask require, as tsx does.
      }
      try {
        const file = createRequire(args.importer).resolve(args.path);
        const name = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
        const at = file.lastIndexOf(`${sep}node_modules${sep}${name.split("/").join(sep)}${sep}`);
        if (at < 0) return undefined;
        const inner = file.slice(at + `${sep}node_modules${sep}${name}${sep}`.length).split(sep).join("/");
        return { path: `${name}/${inner}`, external: true };
      } catch {
        return undefined;
      }
    });
  },
};

/** The bundle's entry for the current sources, made if missing; null when it cannot be made. */
async function bundledEntry() {
  const key = sourceKey();
  const dir = join(cacheRoot, key);
  const file = join(dir, "cli.mjs");
  if (existsSync(file)) return file;
  let esbuild;
  try {
    esbuild = await import("esbuild");
  } catch {
    return null;
  }
  const tmp = join(cacheRoot, `.${key}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    await esbuild.build({
      entryPoints: { cli: entry },
      outdir: tmp,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: `node${process.versions.node.split(".")[0]}`,
      packages: "external",
      plugins: [packageFiles, ownUrl],
      logLevel: "silent",
    });
  } catch {
    rmSync(tmp, { recursive: true, force: true });
    return null;
  }
  try {
    renameSync(tmp, dir);
  } catch {
    // Another call made the same bundle first: use theirs.
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const other of readdirSync(cacheRoot)) {
    const p = join(cacheRoot, other);
    if (other === key) continue;
    try {
      if (Date.now() - statSync(p).mtimeMs > KEEP_STALE_MS) rmSync(p, { recursive: true, force: true });
    } catch {
      // Removed by another call.
    }
  }
  return existsSync(file) ? file : null;
}

async function loadMain() {
  const bundled = process.env.VAULT_AGENT_CLI_TSX === "1" ? null : await bundledEntry().catch(() => null);
  // eslint-disable-next-line no-unsanitized/method -- the bundle this script made, a file of this checkout
  if (bundled) return (await import(pathToFileURL(bundled).href)).main;
  const { register } = await import("tsx/esm/api");
  register();
  // eslint-disable-next-line no-unsanitized/method -- the CLI's own source file
  return (await import(pathToFileURL(entry).href)).main;
}

const main = await loadMain();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`${String(err)}\n`);
    process.exitCode = 1;
  },
);
