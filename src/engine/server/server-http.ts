/**
 * HTTP to one server through a transport (http-transport.ts: fetch by default, Obsidian's requestUrl where fetch
 * is refused): the API key in the Authorization header (and nowhere else), bounded
 * waits, and every failure turned into an EngineError whose message is one sentence naming the server and
 * what to do. Nothing here logs a request or its headers.
 */
import { EngineError } from "../../core/ports/engine";
import { normalizeServerUrl, serverLabel, type ServerEngineConfig } from "./server-config";
import { describeTransport, fetchTransport, type HttpTransport, type TransportName } from "./http-transport";

/** How long a short request (health, props, tokenize, models) may take. */
const SHORT_TIMEOUT_MS = 15_000;
/** How long a generation may wait for the server's first byte (a long prompt on a slow machine takes a while). */
export const GENERATE_HEADERS_TIMEOUT_MS = 600_000;

export interface HttpRequest {
  method?: "GET" | "POST";
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /** Default SHORT_TIMEOUT_MS; covers the wait for the response headers. */
  timeoutMs?: number;
}

/** A server's error reply, as far as it could be read. */
export interface ServerErrorReply {
  status: number;
  /** The server's own message (OpenAI-style `error.message`, or the body text). */
  message: string;
  /** OpenAI-style `error.type`, e.g. llama-server's "exceed_context_size_error". */
  type?: string;
}

/** An HTTP error reply of the server, as a sentence, with the server's own words kept for callers that branch on them. */
export class ServerReplyError extends EngineError {
  constructor(
    message: string,
    code: EngineError["code"],
    /** What the server said. */
    readonly reply: ServerErrorReply,
  ) {
    super(message, code);
  }
}

export class ServerHttp {
  /** Base URL without a trailing slash or /v1. */
  readonly url: string;
  /** "the llama.cpp server at http://…". */
  readonly label: string;

  constructor(
    private readonly config: ServerEngineConfig,
    /** How requests travel; default the platform's fetch. */
    readonly transport: HttpTransport = fetchTransport,
  ) {
    try {
      this.url = normalizeServerUrl(config.url);
    } catch (err) {
      throw new EngineError(`${(err as Error).message} (engine: ${serverLabel(config)})`, "server_unreachable");
    }
    this.label = serverLabel({ kind: config.kind, url: this.url });
  }

  /** Sends one request; resolves with a response whose status is 2xx, otherwise rejects with a sentence. */
  async send(path: string, req: HttpRequest = {}): Promise<Response> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), req.timeoutMs ?? SHORT_TIMEOUT_MS);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout.signal]) : timeout.signal;
    const headers: Record<string, string> = { Accept: "application/json, text/event-stream" };
    if (req.body !== undefined) headers["Content-Type"] = "application/json";
    if (this.config.apiKey) headers.Authorization = `Bearer ${this.config.apiKey}`;
    const attempt = (): Promise<Response> =>
      this.transport.send(this.url + path, {
        method: req.method ?? (req.body === undefined ? "GET" : "POST"),
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal,
      });
    let response: Response;
    try {
      try {
        response = await attempt();
      } catch (err) {
        // A kept-alive connection the server closed just as it was reused fails before any reply: once more, fresh.
        if (signal.aborted || !closedBeforeReply(err)) throw err;
        response = await attempt();
      }
    } catch (err) {
      if (req.signal?.aborted) throw new EngineError(`The request to ${this.label} was cancelled.`, "aborted");
      if (timeout.signal.aborted) {
        throw new EngineError(
          `${capital(this.label)} did not answer within ${Math.round((req.timeoutMs ?? SHORT_TIMEOUT_MS) / 1000)} s; check that it is running and not overloaded.`,
          "server_unreachable",
        );
      }
      throw new EngineError(`${capital(this.label)} cannot be reached (${networkReason(err)}); check the URL in the settings and that the server is running.`, "server_unreachable");
    } finally {
      clearTimeout(timer);
    }
    if (!response.ok) throw this.errorFor(path, await readError(response));
    return response;
  }

  /** For "Test connection" in the renderer: which transport answered and what that means; nothing for the default fetch. */
  transportReport(): { transport?: TransportName; transportNote?: string } {
    if (this.transport === fetchTransport) return {};
    return { transport: this.transport.name, transportNote: describeTransport(this.transport) };
  }

  /** GET or POST, then the JSON body; a reply that is not JSON is a sentence too. */
  async json<T>(path: string, req: HttpRequest = {}): Promise<T> {
    const response = await this.send(path, req);
    const text = await this.readBody(response, path, req.signal);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw this.notCompatible(path, `the reply was not JSON: ${text.slice(0, 80).replace(/\s+/g, " ")}`);
    }
  }

  /** The sentence for a reply that is not what an OpenAI-compatible server sends. */
  notCompatible(path: string, detail: string): EngineError {
    return new EngineError(
      `${capital(this.label)} answered ${path} with something unexpected (${detail}); check that the URL points at a llama.cpp or OpenAI-compatible server.`,
      "server_rejected",
    );
  }

  /** The sentence for a connection that broke while a reply was being read. */
  dropped(err: unknown): EngineError {
    return new EngineError(
      `${capital(this.label)} closed the connection in the middle of a reply (${networkReason(err)}); check that the server is still running, then send the message again.`,
      "server_unreachable",
    );
  }

  /** An HTTP error reply as one sentence, by what the user can do about it. */
  errorFor(path: string, reply: ServerErrorReply): ServerReplyError {
    const detail = reply.message ? `: ${reply.message.slice(0, 200)}` : "";
    const { status } = reply;
    if (status === 401 || status === 403) {
      return new ServerReplyError(
        this.config.apiKey
          ? `${capital(this.label)} refused the API key (${status}${detail}); check the API key in the settings.`
          : `${capital(this.label)} needs an API key (${status}${detail}); enter it in the settings.`,
        "server_auth",
        reply,
      );
    }
    if (status === 404) {
      if (/model/i.test(reply.message)) {
        return new ServerReplyError(
          `${capital(this.label)} has no model ${this.config.model ? `"${this.config.model}"` : "by that name"} (404${detail}); set a model name the server serves in the settings.`,
          "server_not_found",
          reply,
        );
      }
      return new ServerReplyError(`${capital(this.label)} has no ${path} endpoint (404); check that the URL is the server's address (like http://host:8080) and that it is a llama.cpp or OpenAI-compatible server.`, "server_not_found", reply);
    }
    if (reply.type === "exceed_context_size_error" || /context (size|length|window)|exceeds? the (available )?context|maximum context|too many tokens/i.test(reply.message)) {
      return new ServerReplyError(
        `${capital(this.label)} reports that the conversation does not fit its context (${reply.message.slice(0, 160)}); start a new conversation, or restart the server with a larger context (--ctx-size).`,
        "context_overflow",
        reply,
      );
    }
    if (/grammar/i.test(reply.message)) {
      return new ServerReplyError(`${capital(this.label)} rejected the grammar (${reply.message.slice(0, 200)}); the GBNF text must be fixed, or use the OpenAI-compatible engine with JSON Schema.`, "bad_grammar", reply);
    }
    if (/does not match the expected .* format/i.test(reply.message)) {
      return new ServerReplyError(`${capital(this.label)} could not read the model's reply with its chat template (${reply.message.slice(0, 160)}); send the message again.`, "server_rejected", reply);
    }
    if (status === 503) {
      return new ServerReplyError(`${capital(this.label)} is not ready (503${detail}); wait until it has loaded its model, then send the message again.`, "server_unreachable", reply);
    }
    return new ServerReplyError(`${capital(this.label)} refused the request to ${path} (${status}${detail}); see the server's log for why.`, "server_rejected", reply);
  }

  private async readBody(response: Response, path: string, signal: AbortSignal | undefined): Promise<string> {
    try {
      return await response.text();
    } catch (err) {
      if (signal?.aborted) throw new EngineError(`The request to ${this.label} was cancelled.`, "aborted");
      throw this.dropped(err);
    }
  }
}

/** The server's error body: OpenAI-style `{"error": {"message", "type"}}`, `{"error": "..."}`, `{"message"}`, or text. */
export async function readError(response: Response): Promise<ServerErrorReply> {
  const text = await response.text().catch(() => "");
  return { status: response.status, ...errorFields(text) };
}

/** Message and type from an error body (also the `error` object of an SSE event). */
export function errorFields(body: unknown): { message: string; type?: string } {
  let value: unknown = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return { message: body.trim().slice(0, 300) };
    }
  }
  const obj = (value ?? {}) as { error?: unknown; message?: unknown; detail?: unknown };
  const error = obj.error ?? obj;
  if (typeof error === "string") return { message: error };
  const e = error as { message?: unknown; type?: unknown; detail?: unknown };
  const message = typeof e.message === "string" ? e.message : typeof obj.detail === "string" ? obj.detail : JSON.stringify(value).slice(0, 300);
  return { message, ...(typeof e.type === "string" ? { type: e.type } : {}) };
}

/** A socket that closed under a request before any reply (the keep-alive race), as opposed to a refused connection. */
function closedBeforeReply(err: unknown): boolean {
  const cause = (err as { cause?: { code?: string; message?: string } } | null)?.cause;
  return cause?.code === "UND_ERR_SOCKET" || cause?.code === "ECONNRESET" || /other side closed/i.test(cause?.message ?? "");
}

/** "connection refused", "no such host", …: the cause under fetch's generic "fetch failed". */
export function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } } | null)?.cause;
  const code = cause?.code ?? (err as { code?: string } | null)?.code;
  const known: Record<string, string> = {
    ECONNREFUSED: "connection refused",
    ENOTFOUND: "no such host",
    EAI_AGAIN: "the host name could not be looked up",
    ECONNRESET: "connection reset",
    EHOSTUNREACH: "host unreachable",
    ENETUNREACH: "network unreachable",
    ETIMEDOUT: "timed out",
    UND_ERR_SOCKET: "the connection closed",
    UND_ERR_CONNECT_TIMEOUT: "connection timed out",
    CERT_HAS_EXPIRED: "its certificate has expired",
    DEPTH_ZERO_SELF_SIGNED_CERT: "its certificate is self-signed",
  };
  if (code && known[code]) return known[code];
  const message = cause?.message ?? (err instanceof Error ? err.message : String(err));
  return message === "terminated" ? "the connection closed" : message;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
