// Builds the plugin: first the engine host script (a Node program run as a child process), then main.js with the
// host's text embedded, so main.js can write the host next to itself in the plugin folder at runtime
// (Obsidian installs only main.js, manifest.json and styles.css from a release).
// Usage: `node esbuild.config.mjs production` (minified, one shot) or `node esbuild.config.mjs` (watch).
import esbuild from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { brotliCompressSync, constants as zlibConstants } from "node:zlib";
import { pathToFileURL } from "node:url";
import { runInThisContext } from "node:vm";
import { dirname, resolve } from "node:path";
import { MAX_MAIN_JS_BYTES, bundleReport } from "./scripts/bundle-limit.mjs";
import { deflateSync } from "fflate";
import { searchWorkerPacked } from "./scripts/search-worker-build.mjs";
import { toZ85 } from "./scripts/z85.mjs";

const production = process.argv[2] === "production";
const HOST_ENTRY = "src/host/main.ts";
export const HOST_OUT = "build/engine-host.mjs";

// Packages that run only in the engine host and load from node_modules in the plugin folder.
const HOST_EXTERNALS = ["node-llama-cpp", "vectra"];

// The sample plugin's externals, plus every Node built-in with and without the `node:` prefix.
const MAIN_EXTERNALS = [
  "obsidian",
  "electron",
  "@codemirror/autocomplete",
  "@codemirror/collab",
  "@codemirror/commands",
  "@codemirror/language",
  "@codemirror/lint",
  "@codemirror/search",
  "@codemirror/state",
  "@codemirror/view",
  "@lezer/common",
  "@lezer/highlight",
  "@lezer/lr",
  ...builtinModules,
  ...builtinModules.map((name) => `node:${name}`),
];

/** esbuild's options for the engine host: one ESM script (node-llama-cpp is ESM-only), minified for a release. */
export function hostOptions(release = production) {
  return {
    entryPoints: [HOST_ENTRY],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node18",
    external: [...HOST_EXTERNALS, ...builtinModules, ...builtinModules.map((name) => `node:${name}`)],
    plugins: [hostLanguagesSlot],
    // Bundled CommonJS dependencies call require(); give the ESM bundle a real one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    minify: release,
    sourcemap: false,
    logLevel: "warning",
    outfile: HOST_OUT,
  };
}

/**
 * Bundles the engine host (hostOptions) and fills its language slot. Returns `text`, the runnable host as it is written
 * to HOST_OUT and to the plugin folder, and `slotted`, the same with the slot left open, which main.js embeds.
 */
export async function buildHostParts() {
  if (!existsSync(HOST_ENTRY)) {
    if (production) throw new Error(`${HOST_ENTRY} is missing: the engine host must exist for a release build.`);
    console.warn(`warning: ${HOST_ENTRY} is missing; main.js embeds an empty engine host.`);
    return { text: "", slotted: "" };
  }
  const out = await esbuild.build({ ...hostOptions(), write: false });
  const slotted = out.outputFiles[0].text;
  const text = fillHostLanguages(slotted, (await routerLanguagesJson()).json);
  mkdirSync(dirname(HOST_OUT), { recursive: true });
  writeFileSync(HOST_OUT, text);
  return { text, slotted };
}

/** Bundles the engine host (buildHostParts) to HOST_OUT. Returns its runnable text. */
export async function buildHost() {
  return (await buildHostParts()).text;
}

/** Versions the plugin folder's runtime install uses (the user-initiated `npm install` there). */
function runtimeDependencies() {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  // protobufjs is vectra's optional codec dependency; pinned so the index format is always the compact one.
  return Object.fromEntries([...HOST_EXTERNALS, "protobufjs"].map((name) => [name, pkg.dependencies[name]]));
}

/** runtime-packs.json: the runtime this build needs and the sha256 of every pack, checked before anything is unpacked. */
function runtimePacks() {
  const manifest = JSON.parse(readFileSync("runtime-packs.json", "utf8"));
  if (production && (!manifest.version || manifest.packs.length === 0)) {
    throw new Error("runtime-packs.json lists no packs; build them with npm run pack-runtime -- --all --update-manifest.");
  }
  return manifest;
}

/** Refuses a main.js that pulled in a host-only package. */
const forbidHostPackages = {
  name: "forbid-host-packages",
  setup(build) {
    const filter = new RegExp(`^(${HOST_EXTERNALS.join("|")})(/|$)`);
    build.onResolve({ filter }, (args) => ({
      errors: [{ text: `${args.path} is imported from ${args.importer}; it may run only in the engine host, never in main.js.` }],
    }));
  },
};

/** Refuses a main.js that pulled in pdfjs-dist: the plugin reads PDFs with Obsidian's own pdf.js (`loadPdfJs()`). */
const forbidPdfjs = {
  name: "forbid-pdfjs",
  setup(build) {
    build.onResolve({ filter: /^pdfjs-dist(\/|$)/ }, (args) => ({
      errors: [{ text: `${args.path} is imported from ${args.importer}; main.js reads PDFs with Obsidian's loadPdfJs(), pdfjs-dist is for the CLI only.` }],
    }));
  },
};

/**
 * zod re-exports all of its ~40 error-message locales as namespaces, which esbuild cannot tree-shake (about 250 KiB of
 * main.js). The plugin only ever uses English messages (zod's default), so the locale index is reduced to `en`; and
 * z.fromJSONSchema, which the plugin never calls, is left out.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    // z.fromJSONSchema (12 KiB) serves only the headless BFCL eval; the plugin never turns JSON Schema into zod.
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]classic[\\/]from-json-schema\.js$/ }, () => ({
      contents: 'export function fromJSONSchema() { throw new Error("z.fromJSONSchema is not part of the plugin build."); }\n',
      loader: "js",
    }));
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: dirname(args.path),
      loader: "js",
    }));
  },
};

/**
 * zod's package.json says its modules have no side effects, so esbuild leaves out its index module when code imports
 * it as a namespace (`import * as z from "zod"`, which lets the rest be shaken) — and with it the one call that
 * initializes zod's modules, which esbuild wraps to initialize lazily because the MCP SDK's stdio client, imported on
 * demand, needs zod too. main.js then failed at load ("Class2 is not a constructor"). Resolving "zod" as a module with
 * side effects keeps the index module, and its call, ahead of the first tool's schema.
 */
const zodEntryKept = {
  name: "zod-entry-kept",
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, async (args) => {
      if (args.pluginData === "zod-entry-kept") return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: "zod-entry-kept" });
      return resolved.errors.length > 0 ? { errors: resolved.errors } : { path: resolved.path, sideEffects: true };
    });
  },
};

/**
 * The MCP client is always given the code-free cfworker validator (src/engine/mcp/mcp-connection.ts), the tool
 * registry uses it too (src/tools/args-validator.ts): the SDK's default ajv provider, which the client module imports
 * for when none is given, is replaced by one that says so, and ajv (about 150 KiB with its formats) stays out of
 * main.js. The headless code and the tests keep real ajv.
 */
const mcpWithoutAjv = {
  name: "mcp-without-ajv",
  setup(build) {
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/ }, () => ({
      contents:
        'export class AjvJsonSchemaValidator { constructor() { throw new Error("Vault Agent gives the MCP client its cfworker validator; ajv is not part of the plugin."); } }\n',
      loader: "js",
    }));
    build.onResolve({ filter: /^ajv(-formats)?(\/|$)/ }, (args) => ({
      errors: [{ text: `${args.path} is imported from ${args.importer}; main.js validates with @cfworker/json-schema (src/tools/args-validator.ts), never ajv.` }],
    }));
  },
};

/**
 * The MCP client connects with headers the user sets (an API key), never with an OAuth provider
 * (src/engine/mcp/mcp-connection.ts passes none): the SDK's OAuth client, which its HTTP transport imports for when one
 * is given, is replaced by one that says so, and the OAuth flow, its metadata schemas and PKCE stay out of main.js
 * (about 18 KiB). The transport touches it only with a provider, but for the one error class it throws without one.
 */
const mcpWithoutOAuth = {
  name: "mcp-without-oauth",
  setup(build) {
    build.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]client[\\/]auth\.js$/ }, () => ({
      contents: [
        "export class UnauthorizedError extends Error { constructor(message) { super(message ?? \"Unauthorized\"); } }",
        "function noOAuth() { throw new Error(\"Vault Agent connects to MCP servers with headers; OAuth is not part of the plugin.\"); }",
        "export const auth = noOAuth;",
        "export const extractWWWAuthenticateParams = noOAuth;",
        "",
      ].join("\n"),
      loader: "js",
    }));
  },
};

/** The module of every router language table (src/core/router/languages/all.ts). */
const LANGUAGES_ENTRY = "src/core/router/languages/all.ts";

/** The router's language tables as JSON: their sources bundled and evaluated here (they are plain data). */
export async function routerLanguagesJson(entry = LANGUAGES_ENTRY) {
  const out = await esbuild.build({ entryPoints: [entry], bundle: true, format: "cjs", platform: "neutral", write: false, metafile: true, logLevel: "warning" });
  const mod = { exports: {} };
  runInThisContext(`(function (module, exports) {${out.outputFiles[0].text}\n})`)(mod, mod.exports);
  return { json: JSON.stringify(mod.exports.ALL_LANGUAGES), sources: Object.keys(out.metafile.inputs).map((p) => resolve(p)) };
}

/**
 * The module main.js gets instead of languages/all.ts: the same tables as deflated JSON in Z85 (about 45 KiB
 * instead of 100), inflated synchronously at load with fflate (pure JavaScript: mobile has no Node zlib, and the
 * WebView's DecompressionStream is asynchronous while the router's tables are read at module load). fflate's
 * output depends only on its input and version, so the build stays byte-for-byte reproducible.
 */
export function packedLanguagesModule(json) {
  const packed = toZ85(deflateSync(Buffer.from(json, "utf8"), { level: 9, mem: 12 }));
  return [
    'import { inflateSync, strFromU8 } from "fflate";',
    'import { fromZ85 } from "../../text/z85";',
    `const PACKED = ${JSON.stringify(packed)};`,
    "export const ALL_LANGUAGES = JSON.parse(strFromU8(inflateSync(fromZ85(PACKED))));",
    "",
  ].join("\n");
}

/** Replaces the router's language tables in main.js with their packed form (packedLanguagesModule). */
const routerLanguagesPacked = {
  name: "router-languages-packed",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]core[\\/]router[\\/]languages[\\/]all\.ts$/ }, async (args) => {
      const { json, sources } = await routerLanguagesJson(args.path);
      return { contents: packedLanguagesModule(json), resolveDir: dirname(args.path), loader: "js", watchFiles: sources };
    });
  },
};

/**
 * The engine host needs the router's language tables too (its text index drops every language's function words, as
 * src/core/memory/analysis.ts does in main.js), but main.js already carries them: the host bundle gets a slot in their
 * place, a string literal that main.js fills with the tables it has loaded when it writes the host out
 * (src/plugin/engine/host-source.ts), and buildHostParts fills for the host it writes itself. About 50 KiB of main.js.
 */
export const HOST_LANGUAGES_SLOT = "__VAULT_AGENT_ROUTER_LANGUAGES__";

/** Puts the language tables' module in the host bundle as the slot (hostOptions). */
const hostLanguagesSlot = {
  name: "host-languages-slot",
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]core[\\/]router[\\/]languages[\\/]all\.ts$/ }, () => ({
      contents: `export const ALL_LANGUAGES = JSON.parse(${JSON.stringify(HOST_LANGUAGES_SLOT)});\n`,
      loader: "js",
    }));
  },
};

/**
 * The host text with its slot filled by the tables' JSON as a string literal (the same as host-source.ts does). A host
 * without the slot (one that no longer reads the tables) is left as it is; one with it twice is a build error.
 */
export function fillHostLanguages(slotted, json) {
  const slot = JSON.stringify(HOST_LANGUAGES_SLOT);
  const count = slotted.split(slot).length - 1;
  if (count > 1) throw new Error(`The engine host bundle holds ${slot} ${count} times; it must hold it once.`);
  return slotted.replace(slot, () => JSON.stringify(json));
}

/** The host text brotli-compressed, in Z85 (src/plugin/engine/host-source.ts unpacks it). */
export function packHost(hostText) {
  if (!hostText) return "";
  return toZ85(brotliCompressSync(Buffer.from(hostText, "utf8"), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }));
}

/**
 * esbuild's options for main.js with the engine host embedded: `hostText` is the runnable host (its hash marks the
 * script on disk), `hostSlotted` what main.js carries of it (buildHostParts; the same text for a host without the slot).
 */
export function mainOptions(hostText, release = production, hostSlotted = hostText) {
  const hostHash = createHash("sha256").update(hostText).digest("hex").slice(0, 16);
  return {
    entryPoints: ["main.ts"],
    bundle: true,
    platform: "browser",
    format: "cjs",
    target: "es2022",
    external: MAIN_EXTERNALS,
    plugins: [forbidHostPackages, forbidPdfjs, zodEnglishOnly, zodEntryKept, mcpWithoutAjv, mcpWithoutOAuth, routerLanguagesPacked, searchWorkerPacked],
    define: {
      // Compressed: the host is text only the desktop writes to disk, and packed it is about a third of the size.
      __ENGINE_HOST_BROTLI__: JSON.stringify(packHost(hostSlotted)),
      __ENGINE_HOST_HASH__: JSON.stringify(hostHash),
      __RUNTIME_DEPENDENCIES__: JSON.stringify(runtimeDependencies()),
      __RUNTIME_PACKS__: JSON.stringify(runtimePacks()),
    },
    logLevel: "info",
    sourcemap: release ? false : "inline",
    treeShaking: true,
    minify: release,
    // Non-ASCII text (the router's words in 14 languages) as UTF-8, not \uXXXX escapes: 2-3 bytes a letter, not 6.
    charset: "utf8",
    outfile: "main.js",
  };
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;

if (!invokedDirectly) {
  // Imported (by tests) for buildHost(): build nothing here.
} else if (production) {
  const host = await buildHostParts();
  await esbuild.build(mainOptions(host.text, true, host.slotted));
  const size = statSync("main.js").size;
  const hostSize = Buffer.byteLength(host.slotted);
  console.log(`main.js: ${(size / 1024).toFixed(1)} KiB (engine host embedded: ${(hostSize / 1024).toFixed(1)} KiB without the language tables, packed ${(packHost(host.slotted).length / 1024).toFixed(1)} KiB); limit ${MAX_MAIN_JS_BYTES / 1024} KiB`);
  const { problem } = bundleReport("main.js");
  if (problem) {
    console.error(problem);
    process.exitCode = 1;
  }
} else {
  const host = await buildHostParts();
  const context = await esbuild.context(mainOptions(host.text, false, host.slotted));
  await context.watch();
}
