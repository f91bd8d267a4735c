/** The `web` family: fetch one web page as text. Off unless the user turns network tools on. */
import * as z from "zod";
import type { ToolDefinition } from "../core/protocol/tool";
import { defineTool } from "./define-tool";
import { ToolError } from "./tool-error";
import { clip } from "../core/text/clip";
import { outsideData } from "./outside-data";

/** Visible text of an HTML page: scripts, styles and tags removed, entities decoded, whitespace collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript|svg|head)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<(br|\/p|\/div|\/li|\/h[1-6]|\/tr)\b[^>]*>/gi, "\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/[ \t\r\f\v]+/g, " ")
    .replace(/ *\n[\n ]*/g, "\n")
    .trim();
}

const fetchPage = defineTool({
  name: "web:fetch",
  family: "web",
  description: "Fetch a web page (http or https) and return its text. Only works when the user has turned network tools on.",
  routingHints: ["open this link", "fetch the page", "what does this website say", "read the article at", "download the url"],
  args: z.object({
    url: z.string().min(8).max(2000).describe("The full http(s) address."),
  }),
  aliases: { link: "url", href: "url", address: "url", page: "url" },
  effect: "read",
  async handler(args, ctx) {
    if (!ctx.settings.networkTools) {
      throw new ToolError("Network tools are off, so web pages cannot be fetched; the user can turn them on in the plugin settings.", "refused");
    }
    if (!ctx.fetch) {
      throw new ToolError("Network tools are on, but this app gives the agent no way to reach the network, so web pages cannot be fetched here.", "unavailable");
    }
    let url: URL;
    try {
      url = new URL(args.url);
    } catch {
      throw new ToolError(`"${args.url}" is not a valid web address; give a full http(s) URL.`, "bad_args");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new ToolError("Only http and https addresses can be fetched.", "bad_args");
    const response = await ctx.fetch(url.toString(), { signal: ctx.signal });
    if (response.status < 200 || response.status >= 300) {
      throw new ToolError(`${url.host} answered with HTTP ${response.status}; check the address or try another page.`, "not_found");
    }
    const type = response.headers.get("content-type") ?? "";
    const body = await response.text();
    const text = /html/i.test(type) || /^\s*<(!doctype|html)/i.test(body) ? htmlToText(body) : body;
    return {
      content: outsideData(`the web page ${url.toString()}`, clip(text, ctx.settings.readPageChars * 2, "the page is longer")),
      data: { url: url.toString(), status: response.status, contentType: type, chars: text.length },
      empty: text.trim() === "",
    };
  },
});

export const webTools: ToolDefinition[] = [fetchPage];
