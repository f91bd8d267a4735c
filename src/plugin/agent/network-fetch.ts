/**
 * web:fetch's transport inside Obsidian: `requestUrl` (Obsidian's own, not subject to the renderer's CORS).
 * Only wired when the user turned network tools on.
 */
import { requestUrl } from "obsidian";
import type { ToolContext } from "../../core/protocol/tool";

export const networkFetch: NonNullable<ToolContext["fetch"]> = async (url) => {
  const response = await requestUrl({ url, method: "GET", throw: false });
  const headers = Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status: response.status,
    text: () => Promise.resolve(response.text),
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
  };
};
