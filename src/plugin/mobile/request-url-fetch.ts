/**
 * A `fetch` for the MCP SDK's streamable HTTP transport over Obsidian's requestUrl (not bound by CORS on mobile).
 * requestUrl buffers: each POST's reply (JSON or a short SSE stream) arrives whole, which is all a tool call
 * needs. The standalone GET event stream never ends, so it is answered 405 here, which the SDK takes as
 * "this server offers none" — server notifications then arrive with the next reply instead.
 */
import { requestUrlTransport, type RequestUrlFunction } from "../../engine/server/http-transport";

export function requestUrlFetch(requestUrl: RequestUrlFunction): typeof fetch {
  const transport = requestUrlTransport(requestUrl);
  return async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = (init?.method ?? "GET").toUpperCase();
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    if (method === "GET" && /text\/event-stream/.test(headers.accept ?? "")) return new Response(null, { status: 405 });
    if (method === "DELETE") {
      // Ending a session: requestUrl can send it; the reply does not matter.
      await requestUrl({ url, method, headers, throw: false }).catch(() => undefined);
      return new Response(null, { status: 204 });
    }
    const body = typeof init?.body === "string" ? init.body : undefined;
    return transport.send(url, { method: method === "POST" ? "POST" : "GET", headers, body, signal: init?.signal ?? new AbortController().signal });
  };
}
