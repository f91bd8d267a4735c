/**
 * What both server engines open with: one HTTP client, the model info asked once per connection (again after a
 * failure), the split-character ban read from the model file when it is on this machine, and the replies in the
 * Engine's terms. Each engine says only how its server describes its model (`readInfo`).
 */
import { EngineError, type Engine, type ModelInfo } from "../../core/ports/engine";
import type { StreamedReply } from "./chat-stream";
import type { ServerEngineConfig } from "./server-config";
import { ServerHttp } from "./server-http";
import type { HttpTransport } from "./http-transport";
import type { SlotStateStoreFactory } from "./slot-states";
import { UntilFailure } from "./until-failure";

/** The reply of a generation, with the prefix-reuse accounting of the host protocol. */
export type ServerReply = Awaited<ReturnType<Engine["generate"]>> & { tokensEvaluated: number };

/** What the host can add that HTTP cannot tell. */
export interface LlamaServerEngineOptions {
  /**
   * Token ids to ban (the split-character tokens the built-in engine bans under a grammar), found from the
   * server's model file when it is on this machine (llama-server names a model by its file path, so an OpenAI-compatible
   * llama-server gets the same ban); default none.
   */
  splitCharacterTokens?: (modelPath: string) => Promise<number[]>;
  /** How requests travel (http-transport.ts); default the platform's fetch. */
  transport?: HttpTransport;
  /** The store of saved slots, for a configuration with `slotStates` (the engine host's is server-slot-states.ts); default none. */
  slotStates?: SlotStateStoreFactory;
  /** Told of a saved slot that could not be saved or restored (the conversation goes on). */
  onNotice?: (message: string) => void;
}

export abstract class ServerEngineOpening {
  readonly http: ServerHttp;
  private readonly info = new UntilFailure<ModelInfo>(() => this.readInfo());

  constructor(
    protected readonly config: ServerEngineConfig,
    protected readonly options: LlamaServerEngineOptions = {},
  ) {
    this.http = new ServerHttp(config, options.transport);
  }

  /** Asks the server for its model once per connection: the check every use starts with. */
  connect(): Promise<ModelInfo> {
    return this.info.get();
  }

  modelInfo(): Promise<ModelInfo> {
    return this.connect();
  }

  /** Nothing is held open between requests. */
  async dispose(): Promise<void> {}

  /** How this server describes the model it serves (and what the engine keeps from that). */
  protected abstract readInfo(): Promise<ModelInfo>;

  /** Forgets the kept model info and asks again: "Test connection" tries the server as it is now. */
  protected reconnect(): Promise<ModelInfo> {
    this.info.reset();
    return this.connect();
  }

  /** The split-character token ids for the model at `path`; none when the file is not on this machine. */
  protected async bannedTokens(path: string): Promise<number[]> {
    return (await this.options.splitCharacterTokens?.(path).catch(() => [])) ?? [];
  }

  /** The sentence for a configured model name the server does not serve. */
  protected noSuchModel(wanted: string, served: string): EngineError {
    return new EngineError(`${this.label()} has no model "${wanted}" (it serves ${served || "none"}); set a model name it serves in the settings.`, "server_not_found");
  }

  /** The vectors of an embeddings reply, in input order, or a not-compatible error when they do not match the input. */
  protected vectors(reply: { data?: { index?: number; embedding?: unknown }[] }, count: number): number[][] {
    const data = [...(reply.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    if (data.length !== count || data.some((d) => !Array.isArray(d.embedding))) {
      throw this.http.notCompatible("/v1/embeddings", `${data.length} embeddings for ${count} texts`);
    }
    return data.map((d) => d.embedding as number[]);
  }

  /** The server's label as the start of a sentence. */
  protected label(): string {
    const text = this.http.label;
    return text.charAt(0).toUpperCase() + text.slice(1);
  }
}

/** A streamed reply in the Engine's terms; times are measured here, at the client, so they include the HTTP path. */
export function toResult(reply: StreamedReply, constraint: "gbnf" | "json_schema" | "none"): ServerReply {
  const first = reply.firstTokenAt;
  const evaluated = reply.timings?.prompt_n ?? reply.tokensIn;
  return {
    text: reply.text,
    tokensIn: reply.tokensIn,
    tokensOut: reply.tokensOut,
    promptEvalMs: (first ?? reply.endedAt) - reply.startedAt,
    generateMs: first === undefined ? 0 : reply.endedAt - first,
    stopReason: reply.stopReason,
    constraint,
    tokensEvaluated: evaluated,
  };
}

export function abortedServerReply(): ServerReply {
  return { text: "", tokensIn: 0, tokensOut: 0, promptEvalMs: 0, generateMs: 0, stopReason: "abort", tokensEvaluated: 0 };
}
