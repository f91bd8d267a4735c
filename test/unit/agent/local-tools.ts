/** Small local tool definitions for testing the agent's pure parts without the real catalog. */
import { z } from "zod";
import type { ToolDefinition } from "../../../src/core/protocol/tool";

export const readTool: ToolDefinition = {
  name: "notes:read",
  family: "notes",
  description: "Read a note's text.",
  routingHints: ["open my note", "read the note"],
  args: z.object({ path: z.string().max(200) }),
  aliases: { file: "path", note: "path" },
  effect: "read",
  pathArgs: ["path"],
  async handler(args, ctx) {
    const text = await ctx.vault.read((args as { path: string }).path);
    return { content: text, empty: text.trim() === "" };
  },
};

export const appendTool: ToolDefinition = {
  name: "notes:append",
  family: "notes",
  description: "Append a line to a note.",
  routingHints: ["add to my note", "append this"],
  args: z.object({ path: z.string().max(200), line: z.string().max(200) }),
  aliases: { file: "path", text: "line" },
  effect: "write",
  pathArgs: ["path"],
  async preview(args) {
    const a = args as { path: string; line: string };
    return { summary: `Append 1 line to ${a.path}`, preview: `+${a.line}`, previewKind: "diff" };
  },
  async handler(args, ctx) {
    const a = args as { path: string; line: string };
    await ctx.vault.process(a.path, (t) => `${t.replace(/\n?$/, "\n")}${a.line}\n`);
    return { content: `Appended to ${a.path}.` };
  },
};

export const countTool: ToolDefinition = {
  name: "math:count",
  family: "math",
  description: "Count from one number to another.",
  routingHints: ["count to"],
  args: z.object({ from: z.number().int(), to: z.number().int().min(0).max(10), step: z.number().int().min(1).default(1) }),
  effect: "read",
  async handler(args) {
    const a = args as { from: number; to: number; step: number };
    const out: number[] = [];
    for (let i = a.from; i <= a.to; i += a.step) out.push(i);
    return { content: out.join(","), empty: out.length === 0 };
  },
};

export const localTools: ToolDefinition[] = [readTool, appendTool, countTool];
