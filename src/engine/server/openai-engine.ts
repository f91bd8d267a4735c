/**
 * An OpenAI-compatible server (Ollama, LM Studio, vLLM, llama-server, …) as an engine. Grammar-bound turns send
 * the envelope — with the offered tools' args schemas — as `response_format: json_schema` (strict), so the
 * server's own converter constrains the reply; the gatekeeper and the recovery loop still check everything. The
 * schema is grounded as far as JSON Schema can say (src/core/grammar/grounded-json-schema.ts): the vault's paths and
 * tags as shared enums in `$defs`, and per note in context its headings and keys. A server that refuses those enums
 * (too many values for its limits) gets the same schema with them opened up — the gatekeeper then checks the ground
 * after generation — and a server that refuses schemas at all is used prompt only from then on, and every reply says
 * so (`notice`).
 */
import { EngineError, type Engine, type GenerateRequest, type ModelInfo } from "../../core/ports/engine";
import { withoutVaultEnums } from "../../core/grammar/grounded-json-schema";
import { streamChat } from "./chat-stream";
import type { ServerProbe } from "./server-config";
import { ServerReplyError } from "./server-http";
import { abortedServerReply, ServerEngineOpening, toResult, type ServerReply } from "./server-opening";

/** `/v1/models` entries; the context fields some servers add (vLLM, LM Studio, llama-server). */
interface ModelEntry {
  id?: string;
  max_model_len?: number;
  context_length?: number;
  max_context_length?: number;
  meta?: { n_ctx?: number; n_ctx_train?: number; n_embd?: number; n_params?: number; size?: number };
}

/** A deliberately tiny schema for the connection test. */
const PROBE_SCHEMA = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false };

/** Bytes per token assumed when the server cannot count: low, so the estimate errs on the side of more tokens. */
const BYTES_PER_TOKEN_ESTIMATE = 3;

export class OpenAICompatibleEngine extends ServerEngineOpening implements Engine {
  private model = "";
  /** The server's reason for refusing a JSON Schema, once it did; replies then run prompt only. */
  private schemaRefused: string | null = null;
  /** The server's reason for refusing the vault's enums in a schema, once it did; schemas then go with them opened up. */
  private enumsRefused: string | null = null;
  /** Whether the server counts tokens (`/tokenize`, as llama-server and vLLM do); undefined until tried. */
  private tokenizes: boolean | undefined;
  private readonly encoder = new TextEncoder();
  /** OpenAI-style `logit_bias` (token id → -100 bans it): the split-character ban, when the model file is on this machine. */
  private bias: Record<string, number> = {};

  /** Conversations are not tracked: the server handles its own prompt caching. */
  get conversations(): number {
    return 0;
  }

  /** "Test connection": the model, the context size (when the server says), and whether a JSON Schema is accepted. */
  async probe(): Promise<ServerProbe> {
    this.schemaRefused = null;
    this.enumsRefused = null;
    const info = await this.reconnect();
    try {
      await this.http.json("/v1/chat/completions", {
        body: { model: this.model, messages: [{ role: "user", content: "Reply with ok." }], max_tokens: 8, temperature: 0, response_format: schemaFormat(PROBE_SCHEMA) },
        timeoutMs: 60_000,
      });
    } catch (err) {
      if (!isRefusal(err)) throw err;
      this.schemaRefused = refusalReason(err);
    }
    const embeddings = await this.embed(["probe"]).then(
      () => true,
      () => false,
    );
    const models = await this.listModels().catch(() => []);
    return {
      kind: "openai",
      url: this.http.url,
      model: info.name,
      contextSize: info.contextSize,
      grammar: false,
      constraint: this.schemaRefused ? "none" : "json_schema",
      embeddings,
      models: models.map((m) => m.id ?? "").filter(Boolean),
      ...(this.schemaRefused ? { note: this.promptOnlyNotice() } : {}),
      ...this.http.transportReport(),
    };
  }

  async generate(request: GenerateRequest): Promise<ServerReply> {
    if (request.signal?.aborted) return abortedServerReply();
    await this.connect();
    const base = {
      model: this.model,
      messages: request.messages,
      max_tokens: request.maxTokens,
      temperature: request.temperature ?? 0.7,
      top_p: request.topP ?? 0.95,
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      ...(request.stop?.length ? { stop: request.stop } : {}),
      stream_options: { include_usage: true },
      ...(Object.keys(this.bias).length ? { logit_bias: this.bias } : {}),
    };
    const opts = { signal: request.signal, onText: request.onText };
    const constrained = (request.jsonSchema ?? request.grammar) !== undefined;
    let refusedThis: string | null = null;
    if (request.jsonSchema && this.schemaRefused === null) {
      // The grounded schema first (unless the server refused its enums before), then with the vault's enums opened up.
      const open = request.jsonSchema.$defs ? withoutVaultEnums(request.jsonSchema) : null;
      const tries = open ? (this.enumsRefused === null ? [request.jsonSchema, open] : [open]) : [request.jsonSchema];
      for (const schema of tries) {
        let streamed = false;
        try {
          const reply = await streamChat(this.http, { ...base, response_format: schemaFormat(schema) }, {
            ...opts,
            onText: (t) => {
              streamed = true;
              opts.onText?.(t);
            },
          });
          const result = toResult(reply, "json_schema");
          return schema === open && this.enumsRefused ? { ...result, notice: this.enumsNotice(this.enumsRefused) } : result;
        } catch (err) {
          // Only a refusal before any text is a refusal of the schema; a reply cut midway is a real failure.
          if (streamed || !isRefusal(err)) throw err;
          refusedThis = refusalReason(err);
          if (schema !== open && open) this.enumsRefused = refusedThis;
        }
      }
      // One schema refused, or schemas at all? A tiny one tells; only then is the server used prompt only for good.
      if (!(await this.acceptsTinySchema())) this.schemaRefused = refusedThis;
    }
    const reply = await streamChat(this.http, base, opts);
    const result = toResult(reply, "none");
    if (!constrained) return result;
    return { ...result, notice: refusedThis && !this.schemaRefused ? this.schemaNotice(refusedThis) : this.promptOnlyNotice() };
  }

  async embed(texts: string[], options: { signal?: AbortSignal } = {}): Promise<number[][]> {
    if (texts.length === 0) return [];
    await this.connect();
    const reply = await this.http.json<{ data?: { index?: number; embedding?: unknown }[] }>("/v1/embeddings", {
      body: { model: this.model, input: texts.map((t) => (t === "" ? " " : t)) },
      signal: options.signal,
      timeoutMs: 120_000,
    });
    return this.vectors(reply, texts.length);
  }

  /** The server's count where it has a /tokenize endpoint, otherwise a deliberate over-estimate from the UTF-8 length. */
  async countTokens(text: string): Promise<number> {
    if (this.tokenizes !== false) {
      try {
        const reply = await this.http.json<{ tokens?: unknown[]; count?: number }>("/tokenize", { body: { model: this.model, content: text, prompt: text } });
        const n = Array.isArray(reply.tokens) ? reply.tokens.length : reply.count;
        if (typeof n === "number") {
          this.tokenizes = true;
          return n;
        }
        this.tokenizes = false;
      } catch (err) {
        if (!(err instanceof EngineError) || err.code === "server_unreachable" || err.code === "server_auth") throw err;
        this.tokenizes = false;
      }
    }
    return Math.ceil(this.encoder.encode(text).length / BYTES_PER_TOKEN_ESTIMATE);
  }

  /** Whether the server takes the connection test's tiny schema (so a refusal was about one schema, not schemas). */
  private async acceptsTinySchema(): Promise<boolean> {
    try {
      await this.http.json("/v1/chat/completions", {
        body: { model: this.model, messages: [{ role: "user", content: "Reply with ok." }], max_tokens: 1, temperature: 0, response_format: schemaFormat(PROBE_SCHEMA) },
        timeoutMs: 60_000,
      });
      return true;
    } catch (err) {
      if (isRefusal(err)) return false;
      throw err;
    }
  }

  private schemaNotice(reason: string): string {
    return `${this.label()} refused this turn's JSON Schema (${reason.slice(0, 160)}), so this reply ran unconstrained (prompt only); a simpler tool schema, or a llama.cpp server, avoids that.`;
  }

  private enumsNotice(reason: string): string {
    return `${this.label()} refused the vault's paths and tags as a JSON Schema enum (${reason.slice(0, 160)}), so they are checked after generation instead (a missing path is refused with the nearest existing ones).`;
  }

  private promptOnlyNotice(): string {
    return `${this.label()} did not accept a JSON Schema (${(this.schemaRefused ?? "").slice(0, 160)}), so replies are not constrained (prompt only); use a llama.cpp server or a server with JSON Schema support for reliable tool calls.`;
  }

  private async listModels(): Promise<ModelEntry[]> {
    const reply = await this.http.json<{ data?: ModelEntry[] }>("/v1/models");
    if (!Array.isArray(reply.data)) throw this.http.notCompatible("/v1/models", "no model list");
    return reply.data;
  }

  /** Reads /v1/models and picks the configured model (or the first). */
  protected async readInfo(): Promise<ModelInfo> {
    const models = await this.listModels();
    const wanted = this.config.model?.trim();
    const entry = wanted ? models.find((m) => m.id === wanted) : models[0];
    if (!entry) {
      const served = models.map((m) => `"${m.id}"`).join(", ");
      if (wanted) throw this.noSuchModel(wanted, served);
      throw new EngineError(`${this.label()} serves no model; load one on the server, then try again.`, "server_not_found");
    }
    this.model = entry.id ?? wanted ?? "";
    const banned = await this.bannedTokens(this.model);
    this.bias = Object.fromEntries(banned.map((id) => [String(id), -100]));
    const contextSize = entry.max_model_len ?? entry.max_context_length ?? entry.context_length ?? entry.meta?.n_ctx ?? this.config.contextSize;
    return {
      // The server's name for the model (llama-server uses the file's path, so the CLI can tell a local test model).
      path: this.model,
      name: this.model,
      architecture: "unknown",
      ...(entry.meta?.n_params ? { parameterCount: entry.meta.n_params } : {}),
      fileSizeBytes: entry.meta?.size ?? 0,
      ...(entry.meta?.n_ctx_train ? { trainedContextLength: entry.meta.n_ctx_train } : {}),
      ...(contextSize ? { contextSize } : {}),
      ...(entry.meta?.n_embd ? { embeddingLength: entry.meta.n_embd } : {}),
      hasChatTemplate: true,
      constraint: this.schemaRefused ? "none" : "json_schema",
      server: this.http.label,
    };
  }
}

function schemaFormat(schema: Record<string, unknown>): Record<string, unknown> {
  return { type: "json_schema", json_schema: { name: "envelope", strict: true, schema } };
}

/** A 4xx/5xx refusal of the request itself (not a connection, key, model or context problem). */
function isRefusal(err: unknown): boolean {
  return err instanceof EngineError && (err.code === "server_rejected" || err.code === "bad_grammar");
}

/** The server's own words for a refusal. */
function refusalReason(err: unknown): string {
  return err instanceof ServerReplyError ? `${err.reply.status}: ${err.reply.message}` : err instanceof Error ? err.message : String(err);
}
