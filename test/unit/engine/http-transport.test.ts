/**
 * The transport seam of the server engines, over a real HTTP server on 127.0.0.1 that answers like a chat
 * server (SSE). requestUrl is Obsidian's: here it is implemented over Node's fetch, as the e2e harness does.
 * The browser's CORS refusal cannot happen in Node; a fetch transport that rejects as Chromium does
 * ("Failed to fetch", a TypeError) stands in for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import { streamChat } from "../../../src/engine/server/chat-stream";
import { ServerHttp } from "../../../src/engine/server/server-http";
import { AutoTransport, describeTransport, fetchTransport, requestUrlTransport, type HttpTransport, type RequestUrlFunction } from "../../../src/engine/server/http-transport";

let server: Server;
let url = "";
/** Replies finished by the server, so a test can see a reply completing after the client gave up. */
let finished = 0;

function sse(res: import("node:http").ServerResponse, pieces: string[], delayMs: number): void {
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  let i = 0;
  const next = () => {
    if (i < pieces.length) {
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: pieces[i++] } }] })}\n\n`);
      setTimeout(next, delayMs);
      return;
    }
    res.write(`data: ${JSON.stringify({ choices: [{ delta: {}, finish_reason: "stop" }], usage: { prompt_tokens: 5, completion_tokens: pieces.length } })}\n\n`);
    res.end("data: [DONE]\n\n");
    finished++;
  };
  next();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.url === "/health") return void res.writeHead(200, { "Content-Type": "application/json" }).end('{"status":"ok"}');
      if (req.url === "/v1/chat/completions") {
        const slow = (JSON.parse(body) as { slow?: boolean }).slow === true;
        return sse(res, ["Hel", "lo", " there"], slow ? 300 : 5);
      }
      res.writeHead(404, { "Content-Type": "application/json" }).end('{"error":{"message":"Not Found"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Obsidian's requestUrl semantics over Node's fetch: the whole body buffered, no abort. */
const requestUrl: RequestUrlFunction = async (req) => {
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
  return { status: res.status, headers: Object.fromEntries(res.headers.entries()), arrayBuffer: await res.arrayBuffer() };
};

/** Rejects the way Chromium's fetch does when the server does not allow the page's origin. */
const corsRefused: HttpTransport = { name: "fetch", streams: true, send: () => Promise.reject(new TypeError("Failed to fetch")) };

const config = () => ({ kind: "llama-server" as const, url });

describe("server HTTP transports", () => {
  it("fetch streams: text deltas arrive one by one", async () => {
    const chunks: string[] = [];
    const reply = await streamChat(new ServerHttp(config(), fetchTransport), { messages: [] }, { onText: (t) => chunks.push(t) });
    expect(reply).toMatchObject({ text: "Hello there", stopReason: "eos", tokensOut: 3, tokensIn: 5 });
    expect(chunks).toEqual(["Hel", "lo", " there"]);
  });

  it("requestUrl buffers the reply: the same text and stop reason, parsed from the whole SSE body", async () => {
    const chunks: string[] = [];
    const reply = await streamChat(new ServerHttp(config(), requestUrlTransport(requestUrl)), { messages: [] }, { onText: (t) => chunks.push(t) });
    expect(reply).toMatchObject({ text: "Hello there", stopReason: "eos", tokensOut: 3 });
    expect(chunks.join("")).toBe("Hello there");
  });

  it("requestUrl: Stop settles at once with stopReason abort, and the reply that arrives later is ignored", async () => {
    const controller = new AbortController();
    const chunks: string[] = [];
    const before = finished;
    const pending = streamChat(new ServerHttp(config(), requestUrlTransport(requestUrl)), { messages: [], slow: true }, { signal: controller.signal, onText: (t) => chunks.push(t) });
    setTimeout(() => controller.abort(), 50);
    const reply = await pending;
    expect(reply.stopReason).toBe("abort");
    expect(reply.text).toBe("");
    // The server finishes the abandoned reply (about 1 s); nothing of it reaches the caller.
    while (finished === before) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 50));
    expect(chunks).toEqual([]);
  });

  it("an HTTP error through requestUrl is the same one sentence as through fetch", async () => {
    const viaFetch = await new ServerHttp(config(), fetchTransport).json("/nowhere").catch((e: Error) => e.message);
    const viaRequestUrl = await new ServerHttp(config(), requestUrlTransport(requestUrl)).json("/nowhere").catch((e: Error) => e.message);
    expect(viaRequestUrl).toBe(viaFetch);
    expect(viaFetch).toMatch(/has no \/nowhere endpoint \(404\)/);
  });

  it("AutoTransport keeps fetch where it works and says replies stream", async () => {
    const auto = new AutoTransport(fetchTransport, requestUrlTransport(requestUrl));
    const http = new ServerHttp(config(), auto);
    await http.json("/health");
    expect(http.transportReport()).toEqual({ transport: "fetch", transportNote: expect.stringMatching(/^Replies stream/) });
  });

  it("AutoTransport switches to requestUrl when fetch is refused (CORS) and says why, in one sentence", async () => {
    const auto = new AutoTransport(corsRefused, requestUrlTransport(requestUrl));
    const http = new ServerHttp(config(), auto);
    await http.json("/health");
    const report = http.transportReport();
    expect(report.transport).toBe("requestUrl");
    expect(report.transportNote).toMatch(/arrive whole.*Failed to fetch.*CORS.*OLLAMA_ORIGINS/);
    expect(report.transportNote!.split(". ").length).toBeLessThanOrEqual(3);
    const reply = await streamChat(http, { messages: [] }, {});
    expect(reply.text).toBe("Hello there");
  });

  it("a server that is down fails both ways: one sentence naming it, and fetch stays the choice", async () => {
    const auto = new AutoTransport(fetchTransport, requestUrlTransport(requestUrl));
    const http = new ServerHttp({ kind: "llama-server", url: "http://127.0.0.1:9" }, auto);
    await expect(http.json("/health")).rejects.toThrow(/^The llama\.cpp server at http:\/\/127\.0\.0\.1:9 cannot be reached \(.+\); check the URL/);
    expect(auto.name).toBe("fetch");
    expect(describeTransport(fetchTransport)).toMatch(/stream/);
  });
});
