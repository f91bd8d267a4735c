/**
 * Node's built-in modules for the desktop-only code inside main.js (src/desktop, the Node-backed engines, the plugin's
 * desktop services) without a static import of any of them: main.js then requires no Node module when it loads, so it
 * loads on Obsidian's mobile app, as Obsidian's review rule (no-nodejs-modules) asks.
 *
 * Each module is looked up on first use: the ones the plugin's desktop entry provided (loaded there with a dynamic
 * import behind Platform.isDesktop), else Node's own `process.getBuiltinModule` (the CLI, the engine host and the tests
 * run in plain Node). Where neither exists (mobile) a use fails with one sentence.
 */

/** The built-ins desktop-only code uses, by the name it uses them under. */
export interface NodeBuiltins {
  fs: typeof import("fs");
  fsPromises: typeof import("fs/promises");
  path: typeof import("path");
  os: typeof import("os");
  crypto: typeof import("crypto");
  zlib: typeof import("zlib");
  http: typeof import("http");
  https: typeof import("https");
  net: typeof import("net");
  url: typeof import("url");
  module: typeof import("module");
  childProcess: typeof import("child_process");
}

/** Node's specifier of each. */
export const NODE_SPECIFIERS: { readonly [K in keyof NodeBuiltins]: string } = {
  fs: "fs",
  fsPromises: "fs/promises",
  path: "path",
  os: "os",
  crypto: "crypto",
  zlib: "zlib",
  http: "http",
  https: "https",
  net: "net",
  url: "url",
  module: "module",
  childProcess: "child_process",
};

const NOT_HERE = "This part of Vault Agent needs Node (Obsidian's desktop app or the command line); it is not available here.";

let provided: Partial<NodeBuiltins> = {};

/** The plugin's desktop entry hands over the modules it loaded (behind its desktop check). */
export function provideNodeBuiltins(modules: Partial<NodeBuiltins>): void {
  provided = { ...provided, ...modules };
}

/** The module now: provided, or Node's own; throws the sentence above where there is no Node. */
export function nodeBuiltin<K extends keyof NodeBuiltins>(name: K): NodeBuiltins[K] {
  const given = provided[name];
  if (given) return given;
  const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  const found = proc?.getBuiltinModule?.(NODE_SPECIFIERS[name]) as NodeBuiltins[K] | undefined;
  if (!found) throw new Error(NOT_HERE);
  return found;
}

/**
 * A stand-in for the module that looks it up on first use, so a desktop-only file can name it at its top level
 * (`const fs = nodeModule("fs")`) and still load where Node is absent. Functions come bound to the module, and each
 * member is read once.
 */
export function nodeModule<K extends keyof NodeBuiltins>(name: K): NodeBuiltins[K] {
  const members = new Map<PropertyKey, unknown>();
  return new Proxy({} as NodeBuiltins[K], {
    get(_target, key) {
      if (members.has(key)) return members.get(key);
      const module = nodeBuiltin(name) as unknown as Record<PropertyKey, unknown>;
      const value = module[key];
      const member = typeof value === "function" && !isClass(value) ? (value as (...args: unknown[]) => unknown).bind(module) : value;
      members.set(key, member);
      return member;
    },
    has: (_target, key) => key in (nodeBuiltin(name) as object),
  });
}

/** Constructors (Node names them with a capital: ReadStream, Agent, Gunzip) stay unbound, so `instanceof`, `new` and
 * their static members work as on the module itself. */
function isClass(value: unknown): boolean {
  return typeof value === "function" && /^[A-Z]/.test((value as { name: string }).name);
}
