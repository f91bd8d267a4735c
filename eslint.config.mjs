// Lint: Obsidian's recommended rules (which include typescript-eslint's type-checked set) over the whole repo.
// Node-only code (CLI, engine host, tests; src/engine runs in the renderer but reaches Node on desktop only) keeps the type-checked rules but not the renderer-only ones.
import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";
import globals from "globals";

export default defineConfig([
  globalIgnores(["node_modules/", "main.js", "build/", "dist/", ".cache/", "test-results/", "examples/", "**/*.tmp.*"]),
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs", "vitest.config.ts", "test/e2e/*.mjs", "scripts/*.mjs"],
          // The build, test and e2e scripts above are a dozen small files outside tsconfig's include.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 32,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    rules: {
      "obsidianmd/ui/sentence-case": ["warn", { brands: ["Vault Agent", "Obsidian", "Hugging Face"], acronyms: ["GPU", "CPU", "GGUF", "URL", "MCP", "JSON", "API", "PDF"], enforceCamelCaseLower: true }],
    },
  },
  {
    // Node folders: the CLI, the engine host, the tests and the build scripts run in plain Node, never in Obsidian's
    // renderer, so Node's globals and built-ins are theirs (the review's no-nodejs-modules guards mobile users of
    // main.js, which none of these is part of).
    files: ["src/node/**", "src/host/**", "test/**", "scripts/**", "*.mjs", "vitest.config.ts"],
    languageOptions: { globals: { ...globals.node, NodeJS: "readonly" } },
    rules: { "obsidianmd/no-nodejs-modules": "off" },
  },
  {
    // Desktop-only code inside main.js: src/desktop (shared with the CLI) and the Node-backed engines and plugin
    // services, all reached only through the desktop entry that main.ts imports behind Platform.isDesktopApp. They may
    // name Node's globals (process, Buffer, NodeJS); Node's modules they reach through src/engine/node-builtins.ts, never
    // by a static import (the review's no-nodejs-modules stays on for them).
    files: [
      "src/desktop/**",
      "src/engine/atomic-file.ts",
      "src/engine/client/{engine-client,launcher,node-launcher}.ts",
      "src/engine/gguf/{header-parser,read-gguf-info}.ts",
      "src/engine/mcp/mcp-connection.ts",
      "src/engine/server/managed-llama-{binary,server}.ts",
      "src/plugin/runtime/{data-location,runtime-service}.ts",
    ],
    languageOptions: { globals: { ...globals.node, NodeJS: "readonly" } },
  },
  {
    // Headless code, the engine host and the engines run in plain Node or beside it: console output and global timers
    // are how they are supposed to work.
    files: ["src/node/**", "src/host/**", "src/engine/**", "src/desktop/**", "test/**", "*.mjs", "scripts/**", "vitest.config.ts"],
    rules: {
      "obsidianmd/rule-custom-message": "off",
      "obsidianmd/prefer-window-timers": "off",
      "obsidianmd/no-global-this": "off",
      "obsidianmd/prefer-create-el": "off",
      "obsidianmd/ui/sentence-case": "off",
      "obsidianmd/hardcoded-config-path": "off",
      "no-restricted-globals": "off",
      "import/no-extraneous-dependencies": "off",
    },
  },
  // Layer fences (ARCHITECTURE.md): imports only point down. When a fence rejects an import, fix the structure, never
  // the fence. Lowest first: core/text and core/ports < core/protocol < core's parts < core/agent < tools < engine (renderer-side)
  // < host (the engine host process) < app (the one assembly) < plugin, node; desktop (Node code on the user's computer
  // that the plugin on desktop and the CLI share: runtime packs, downloads, the engine host's launcher) sits on engine
  // and under plugin and node, which never import each other. A relative import names the folder it reaches, so each
  // fence matches folder names; the core's own fence also keeps hosts and Node out.
  ...layerFences(),
  {
    // The core runs in the renderer and headless alike, so it uses the timers both have.
    files: ["src/core/**"],
    rules: { "obsidianmd/prefer-window-timers": "off" },
  },
  {
    // The model download and the runtime's start-up check run in the renderer and in Node alike (the CLI's
    // install bench, the tests), and belong to no window: they use the timers both have.
    files: ["src/desktop/download/model-download.ts", "src/desktop/runtime/smoke-test.ts"],
    rules: { "obsidianmd/prefer-window-timers": "off" },
  },
  {
    // The CLI imports its own command and benchmark modules by name from fixed folders; no DOM is involved.
    files: ["src/node/**"],
    rules: { "no-unsanitized/method": "off" },
  },
  {
    // Tests build odd values on purpose (fakes, partial objects, assertions on any-typed JSON).
    files: ["test/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/unbound-method": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/no-floating-promises": "off",
      "@typescript-eslint/no-empty-function": "off",
      "obsidianmd/no-tfile-tfolder-cast": "off",
      "obsidianmd/prefer-instanceof": "off",
      "obsidianmd/no-static-styles-assignment": "off",
      "obsidianmd/no-forbidden-elements": "off",
      "obsidianmd/sample-names": "off",
      "obsidianmd/prefer-file-manager-trash-file": "off",
      "no-unsanitized/method": "off",
      // Tests run in Node, never in iOS's WebView.
      "obsidianmd/regex-lookbehind": "off",
    },
  },
]);

/** One no-restricted-imports entry per layer: what each folder may not reach (each entry is whole, flat config does not merge rule options). */
function layerFences() {
  const folder = (names, message) => ({ regex: `(^|/)(${names.join("|")})/`, message });
  const outerOfCore = folder(["tools", "engine", "host", "desktop", "app", "plugin", "node"], "src/core must not import an outer layer: it talks to hosts through its ports.");
  const nodeBuiltins = [
    { regex: "^node:", message: "This layer runs where Node may not exist: no Node built-ins." },
    { regex: "^(fs|path|os|child_process|crypto|http|https|net|url|worker_threads)(/.*)?$", message: "This layer runs where Node may not exist: no Node built-ins." },
  ];
  const hostPackages = { regex: "^(obsidian|electron|node-llama-cpp|vectra)$", message: "This layer talks to hosts through the core's ports only." };
  const core = [hostPackages, ...nodeBuiltins, outerOfCore];
  const fence = (files, patterns) => ({ files, rules: { "no-restricted-imports": ["error", { patterns }] } });
  return [
    fence(["src/core/**"], core),
    fence(["src/core/text/**"], [...core, folder(["ports", "protocol", "grammar", "router", "gatekeeper", "memory", "journal", "agent"], "core/text holds plain text helpers that import nothing of the core.")]),
    fence(["src/core/{grammar,router,gatekeeper,memory,journal}/**"], [...core, folder(["agent"], "The core's parts sit below the agent loop; move what both need to core/ports or core/protocol.")]),
    fence(["src/core/protocol/**"], [...core, folder(["grammar", "router", "gatekeeper", "memory", "journal", "agent"], "core/protocol holds plain types; it may use core/ports only.")]),
    fence(["src/core/ports/**"], [...core, folder(["protocol", "grammar", "router", "gatekeeper", "memory", "journal", "agent"], "core/ports is the lowest layer; it imports nothing of the core.")]),
    fence(["src/tools/**"], [hostPackages, ...nodeBuiltins, folder(["engine", "host", "desktop", "app", "plugin", "node"], "src/tools sits above the core only; hosts hand tools their ports.")]),
    fence(["src/engine/**"], [{ regex: "^(obsidian|node-llama-cpp|vectra)$", message: "Renderer-side engines reach node-llama-cpp and vectra through the engine host, and Obsidian through their callers." }, folder(["tools", "host", "desktop", "app", "plugin", "node"], "src/engine (renderer-side engines) may use src/core only.")]),
    fence(["src/host/**"], [{ regex: "^obsidian$", message: "The engine host is a plain Node process: no Obsidian." }, folder(["tools", "desktop", "app", "plugin", "node"], "The engine host may use src/core and src/engine only.")]),
    fence(["src/desktop/**"], [{ regex: "^(obsidian|node-llama-cpp|vectra)$", message: "src/desktop runs in the plugin and in the CLI alike: no Obsidian, and the engine host's packages only through the host." }, folder(["tools", "host", "app", "plugin", "node"], "src/desktop may use src/core and src/engine only; the plugin and the CLI call it.")]),
    fence(["src/app/**"], [{ regex: "^(obsidian|node-llama-cpp|vectra)$", message: "The assembly takes ports; hosts make them." }, ...nodeBuiltins, folder(["desktop", "plugin", "node"], "src/app is below the hosts that call it.")]),
    fence(["src/plugin/**", "main.ts"], [folder(["node"], "The plugin must not import headless code (src/node); what both need lives in src/desktop."), folder(["host"], "The plugin talks to the engine host over its protocol (src/engine/client), never by importing it.")]),
    fence(["src/node/**"], [folder(["plugin"], "Headless code must not import the plugin (src/plugin); what both need lives in src/desktop.")]),
  ];
}
