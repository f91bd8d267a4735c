import { describe, expect, it } from "vitest";
import { errorFields, networkReason } from "../../../src/engine/server/server-http";
import { normalizeServerUrl, serverLabel } from "../../../src/engine/server/server-config";
import { SlotPool } from "../../../src/engine/server/slot-pool";
import { readSse } from "../../../src/engine/server/sse";
import { serverFromFlags } from "../../../src/node/server-flags";

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc.encode(chunk));
      c.close();
    },
  });
}

async function events(chunks: string[]): Promise<string[]> {
  const out: string[] = [];
  for await (const e of readSse(body(chunks))) out.push(e);
  return out;
}

describe("server engine parts", () => {
  it("reads SSE data split anywhere across chunks, CRLF or LF, skipping comments", async () => {
    expect(await events(['data: {"a":', "1}\r\n\r\n: ping\n\nda", "ta: [DONE]\n\n"])).toEqual(['{"a":1}', "[DONE]"]);
    // An event the stream ends inside (no blank line after it) is dropped, as the standard says.
    expect(await events(["data: x\ndata: y\n\n", "data: cut"])).toEqual(["x\ny"]);
  });

  it("turns llama-server's `error:` line into an error event", async () => {
    expect(await events(['error: {"code":500,"message":"boom"}\n\n'])).toEqual([JSON.stringify({ error: { code: 500, message: "boom" } })]);
  });

  it("reads the server's words from OpenAI-style, string and plain-text error bodies", () => {
    expect(errorFields('{"error":{"code":400,"message":"too long","type":"exceed_context_size_error"}}')).toEqual({ message: "too long", type: "exceed_context_size_error" });
    expect(errorFields('{"error":"model \\"x\\" not found"}')).toEqual({ message: 'model "x" not found' });
    expect(errorFields('{"detail":"Not Found"}')).toEqual({ message: "Not Found" });
    expect(errorFields("<html>Bad gateway</html>")).toEqual({ message: "<html>Bad gateway</html>" });
  });

  it("names network failures in words", () => {
    expect(networkReason(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }))).toBe("connection refused");
    expect(networkReason(Object.assign(new TypeError("fetch failed"), { cause: { code: "ENOTFOUND" } }))).toBe("no such host");
    expect(networkReason(new TypeError("terminated"))).toBe("the connection closed");
  });

  it("normalizes a server address and refuses what is not http(s)", () => {
    expect(normalizeServerUrl(" http://127.0.0.1:8080/ ")).toBe("http://127.0.0.1:8080");
    expect(normalizeServerUrl("http://localhost:1234/v1")).toBe("http://localhost:1234");
    expect(normalizeServerUrl("https://box.lan/llm/v1/?x=1")).toBe("https://box.lan/llm");
    expect(() => normalizeServerUrl("ftp://x")).toThrow('"ftp://x" is not an http or https address');
    expect(() => normalizeServerUrl("localhost:8080x y")).toThrow("is not");
    expect(serverLabel({ kind: "openai", url: "http://h:1/v1" })).toBe("the OpenAI-compatible server at http://h:1");
  });

  it("keeps a slot per conversation and gives the least recently used one up when all are taken", () => {
    const pool = new SlotPool(2);
    expect(pool.slotFor(undefined)).toBe(-1);
    const a = pool.slotFor("a");
    const b = pool.slotFor("b");
    expect(new Set([a, b]).size).toBe(2);
    expect(pool.slotFor("a")).toBe(a);
    expect(pool.slotFor("c")).toBe(b);
    expect(pool.slotFor("a")).toBe(a);
    expect(pool.conversations).toBe(2);
  });

  it("CLI flags: --engine needs --url; --url needs --engine", () => {
    expect(serverFromFlags({})).toBeUndefined();
    expect(serverFromFlags({ engine: "llama-server", url: "http://h:8080", "api-key": "k", "server-model": "m" })).toEqual({ kind: "llama-server", url: "http://h:8080", apiKey: "k", model: "m" });
    expect(() => serverFromFlags({ engine: "llama-server" })).toThrow("--engine llama-server needs the server's address: --url http://host:port.");
    expect(() => serverFromFlags({ url: "http://h:1" })).toThrow("--url needs --engine llama-server or --engine openai.");
    expect(() => serverFromFlags({ engine: "ollama", url: "http://h:1" })).toThrow('--engine must be llama-cpp, llama-server, openai or builtin, got "ollama".');
  });
});
