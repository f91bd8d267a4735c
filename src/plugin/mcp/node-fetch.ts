import { nodeModule } from "../../engine/node-builtins";

const http = nodeModule("http");
const https = nodeModule("https");
/**
 * fetch over Node's HTTP client, for MCP's streamable HTTP transport in Obsidian's renderer: the renderer's own fetch
 * applies the browser's CORS rules, which local MCP servers rarely satisfy. Bodies stream (server-sent events arrive
 * as they are sent); aborting destroys the request.
 */

function requestUrl(input: string | URL | Request): URL {
  return new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
}

export const nodeFetch: typeof fetch = (input, init = {}) =>
  new Promise<Response>((resolve, reject) => {
    const url = requestUrl(input);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => {
      headers[key] = value;
    });
    if (init.body !== undefined && init.body !== null && typeof init.body !== "string") {
      reject(new TypeError("This fetch sends text bodies only."));
      return;
    }
    const body = init.body ?? undefined;
    if (body !== undefined) headers["content-length"] = String(new TextEncoder().encode(body).length);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) {
      reject(signal.reason instanceof Error ? signal.reason : new DOMException("The request was aborted.", "AbortError"));
      return;
    }
    const client = url.protocol === "https:" ? https : http;
    const req = client.request(url, { method: init.method ?? "GET", headers }, (res) => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          res.on("data", (chunk: Uint8Array) => controller.enqueue(new Uint8Array(chunk)));
          res.on("end", () => controller.close());
          res.on("error", (err) => controller.error(err));
        },
        cancel() {
          res.destroy();
        },
      });
      const out = new Headers();
      for (const [key, value] of Object.entries(res.headers)) if (value !== undefined) out.set(key, Array.isArray(value) ? value.join(", ") : value);
      const status = res.statusCode ?? 502;
      resolve(new Response([101, 204, 205, 304].includes(status) ? null : stream, { status, statusText: res.statusMessage ?? "", headers: out }));
    });
    req.on("error", (err) => reject(new TypeError(`fetch failed: ${err.message}`)));
    signal?.addEventListener("abort", () => {
      req.destroy();
      reject(signal.reason instanceof Error ? signal.reason : new DOMException("The request was aborted.", "AbortError"));
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
