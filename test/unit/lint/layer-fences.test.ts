/**
 * The layer fences in eslint.config.mjs: an import that climbs a layer fails `npm run lint`. Each case lints a
 * probe file at a path inside a layer with the repository's own config for that path (the fence rule as the config
 * computes it), so a fence that stops matching its folder fails here.
 */
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ESLint, Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
const eslint = new ESLint({ cwd: repo });

async function fenceErrors(file: string, code: string): Promise<string[]> {
  const config = (await eslint.calculateConfigForFile(file)) as { rules?: Record<string, Linter.RuleEntry> };
  const rule = config.rules?.["no-restricted-imports"];
  if (!rule) return [];
  const linter = new Linter({ configType: "flat", cwd: repo });
  const messages = linter.verify(code, [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser }, rules: { "no-restricted-imports": rule } }], { filename: `${repo}/${file}` });
  return messages.map((m) => m.message);
}

const CLIMBS: [string, string][] = [
  ["src/core/ports/probe.ts", 'import type { Envelope } from "../protocol/envelope";'],
  ["src/core/text/probe.ts", 'import type { Engine } from "../ports/engine";'],
  ["src/core/protocol/probe.ts", 'import type { AgentEvent } from "../agent/events";'],
  ["src/core/router/probe.ts", 'import type { AgentEvent } from "../agent/events";'],
  ["src/core/agent/probe.ts", 'import { createToolCatalog } from "../../tools/index";'],
  ["src/core/memory/probe.ts", 'import { readFileSync } from "node:fs";'],
  ["src/tools/probe.ts", 'import { EngineClient } from "../engine/client/engine-client";'],
  ["src/engine/vector/probe.ts", 'import { VectraStore } from "../../host/vector/vectra-store";'],
  ["src/host/probe.ts", 'import { assembleAgent } from "../app/assemble-agent";'],
  ["src/app/probe.ts", 'import { composeHeadless } from "../node/compose";'],
  ["src/plugin/chat/probe.ts", 'import { FolderVault } from "../../node/folder-vault/folder-vault";'],
  ["src/plugin/runtime/probe.ts", 'import type { RuntimeCheckParams } from "../../host/runtime-check";'],
  ["main.ts", 'import { runtimeCheck } from "./src/host/runtime-check";'],
  ["src/node/bench/probe.ts", 'import { DiskRuntimeService } from "../../plugin/runtime/runtime-service";'],
  ["src/node/probe.ts", 'import type { VaultAgentSettings } from "../plugin/settings/settings";'],
  ["src/desktop/runtime/probe.ts", 'import { serverConfig } from "../../plugin/settings/settings";'],
  ["src/desktop/engine-host/probe.ts", 'import { runtimeCheck } from "../../host/runtime-check";'],
  ["src/engine/client/probe.ts", 'import { RuntimeStore } from "../../desktop/runtime/runtime-store";'],
  ["src/app/probe.ts", 'import { downloadFile } from "../desktop/download/model-download";'],
];

const LEGAL: [string, string][] = [
  ["src/core/agent/probe.ts", 'import type { Engine } from "../ports/engine";'],
  ["src/tools/probe.ts", 'import type { VaultPort } from "../core/ports/vault";'],
  ["src/host/probe.ts", 'import { readGgufInfo } from "../engine/gguf/read-gguf-info";'],
  ["src/app/probe.ts", 'import { McpCatalog } from "../tools/mcp/mcp-catalog";'],
  ["src/node/probe.ts", 'import { assembleAgent } from "../app/assemble-agent";'],
  ["src/node/bench/probe.ts", 'import { RuntimeStore } from "../../desktop/runtime/runtime-store";'],
  ["src/plugin/runtime/probe.ts", 'import { RuntimeStore } from "../../desktop/runtime/runtime-store";'],
  ["src/desktop/runtime/probe.ts", 'import type { RuntimeCheckResult } from "../../engine/client/host-protocol";'],
];

describe("layer fences", () => {
  it.each(CLIMBS)("refuses a climbing import in %s", async (file, code) => {
    const errors = await fenceErrors(file, code);
    expect(errors.length, `${file}: ${code}`).toBe(1);
  });

  it("fails `eslint` on a real file that climbs, as `npm run lint` runs it", async () => {
    // A temporary file in the core, linted with the whole config (type-aware rules included), then removed.
    const file = `src/core/router/fence-probe-${process.pid}.ts`;
    writeFileSync(`${repo}/${file}`, 'import { FolderVault } from "../../node/folder-vault/folder-vault";\nexport const probe = FolderVault;\n');
    try {
      const [result] = await eslint.lintFiles([file]);
      expect(result.messages.filter((m) => m.ruleId === "no-restricted-imports").length).toBe(1);
    } finally {
      rmSync(`${repo}/${file}`, { force: true });
    }
  });

  it.each(LEGAL)("allows a downward import in %s", async (file, code) => {
    expect(await fenceErrors(file, code)).toEqual([]);
  });
});
