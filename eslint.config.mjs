// Lint: Obsidian's recommended rules (which include typescript-eslint's type-checked set) over the whole repo.
// Node-only code (CLI, engine host, tests) keeps the type-checked rules but not the renderer-only ones.
import { defineConfig, globalIgnores } from "eslint/config";
import obsidianmd from "eslint-plugin-obsidianmd";

export default defineConfig([
  globalIgnores(["node_modules/", "main.js", "build/", "dist/", ".cache/", "test-results/", "examples/", "**/*.tmp.*"]),
  ...obsidianmd.configs.recommended,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ["eslint.config.mjs", "esbuild.config.mjs", "vitest.config.ts", "test/e2e/*.mjs", "scripts/*.mjs"],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
  {
    rules: {
      "obsidianmd/ui/sentence-case": ["warn", { brands: ["Vault Agent", "Obsidian", "Hugging Face"], acronyms: ["GPU", "CPU", "GGUF", "URL", "MCP", "JSON", "API"], enforceCamelCaseLower: true }],
    },
  },
  {
    // Headless code and the engine host run in plain Node, never in Obsidian's renderer: console output,
    // Node built-ins and global timers are how they are supposed to work.
    files: ["src/node/**", "src/engine/**", "test/**", "*.mjs", "vitest.config.ts"],
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
  {
    // The core runs in the renderer and headless alike, so it uses the timers both have; it imports no host
    // (the fence from ARCHITECTURE.md: fix the structure, never the fence).
    files: ["src/core/**"],
    rules: {
      "obsidianmd/prefer-window-timers": "off",
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^(obsidian|electron|node-llama-cpp|vectra)$", message: "src/core talks to hosts through its ports only." },
            { regex: "^node:", message: "src/core must not import Node built-ins." },
            { regex: "^(fs|path|os|child_process|crypto|http|https|url|worker_threads)(/.*)?$", message: "src/core must not import Node built-ins." },
            { regex: "(^|/)(plugin|node|engine)/", message: "src/core must not import a host layer." },
          ],
        },
      ],
    },
  },
  {
    // The model download and the runtime's start-up check run in the renderer and in Node alike (the CLI's
    // install bench, the tests), and belong to no window: they use the timers both have.
    files: ["src/plugin/download/model-download.ts", "src/plugin/runtime/smoke-test.ts"],
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
    },
  },
]);
