/** The `clock` family: the current date and time, so the model never guesses "today". */
import * as z from "zod";
import type { ToolDefinition } from "../core/protocol/tool";
import { defineTool } from "./define-tool";
import { formatDate } from "./date-format";

const now = defineTool({
  name: "clock:now",
  family: "clock",
  description: "The current local date, time, weekday and week number.",
  routingHints: ["what time is it", "what's the date today", "what day is it", "current time", "which week is it"],
  args: z.object({}),
  effect: "read",
  handler(_args, ctx) {
    const d = ctx.now();
    const offset = -d.getTimezoneOffset();
    const zone = `UTC${offset >= 0 ? "+" : "-"}${String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0")}:${String(Math.abs(offset) % 60).padStart(2, "0")}`;
    const text = `${formatDate(d, "dddd, YYYY-MM-DD HH:mm")} (${zone}), ISO week ${formatDate(d, "W")}`;
    return Promise.resolve({ content: `It is ${text}.`, data: { iso: d.toISOString(), date: formatDate(d, "YYYY-MM-DD"), time: formatDate(d, "HH:mm"), weekday: formatDate(d, "dddd") } });
  },
});

export const clockTools: ToolDefinition[] = [now];
