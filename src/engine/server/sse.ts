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
