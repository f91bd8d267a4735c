import { errorFields, type ServerHttp } from "./server-http";

/** Server-sent events from a fetch body: yields each complete event's `data` (multi-line data joined by "\n"). */

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).replace(/\r$/, "");
        buffer = buffer.slice(nl + 1);
        if (line === "") {
          if (data.length > 0) yield data.join("\n");
          data = [];
        } else if (line.startsWith("data:")) {
          data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
        } else if (line.startsWith("error:")) {
          // llama-server reports a failure after the headers as an `error:` line.
          data.push(JSON.stringify({ error: safeJson(line.slice(6).trim()) }));
        }
        // Comments (":") and other fields (event, id, retry) carry nothing the engines use.
      }
    }
    // An event not closed by a blank line when the stream ends is dropped, as the SSE standard says.
  } finally {
    reader.releaseLock();
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/**
 * The JSON events of a server's stream (`/completion`, `/v1/chat/completions`), to a `[DONE]` event or the end. An event
 * that is not JSON means a server we do not speak to; an error event is thrown as the server's own sentence.
 */
export async function* readJsonEvents<T extends { error?: unknown }>(body: ReadableStream<Uint8Array>, http: ServerHttp, path: string): AsyncGenerator<T> {
  for await (const data of readSse(body)) {
    if (data.trim() === "[DONE]") return;
    let event: T;
    try {
      event = JSON.parse(data) as T;
    } catch {
      throw http.notCompatible(path, `an event that is not JSON: ${data.slice(0, 80)}`);
    }
    if (event.error !== undefined) {
      const code: unknown = event.error !== null && typeof event.error === "object" ? (event.error as Record<string, unknown>).code : undefined;
      const status = Number(code);
      throw http.errorFor(path, { status: Number.isInteger(status) ? status : 500, ...errorFields({ error: event.error }) });
    }
    yield event;
  }
}
