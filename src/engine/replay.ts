/**
 * The replay engine: recorded model replies (`{"reply": "..."}` lines, as `ask --transcript` writes them) served in
 * order, everything else running as for a model. Each reply is checked with the GBNF recognizer against the grammar
 * the round sends, so a reply this round's grammar would not allow is refused as a model's never could be written,
 * with a sentence that says why (a tool this round does not offer, or arguments its grammar does not allow).
 */
import { GbnfRecognizer } from "../core/grammar";
import { EngineError, type Engine, type GenerateRequest, type GenerateResult, type ModelInfo } from "../core/ports/engine";

/** Tokens as the replay engine counts them: about four characters each (as the scripted engine). */
export function replayTokenCount(text: string): number {
  return Math.ceil(text.length / 4);
}

/** The replies of a replay file: one JSON object a line; `{"reply": "..."}` lines count, transcript events (`{"type": ...}`) are skipped. */
export function parseReplayLines(text: string, name = "the replay file"): string[] {
  const replies: string[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ReplayFormatError(`Line ${i + 1} of ${name} is not JSON; each line must be one object such as {"reply": "..."}.`);
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ReplayFormatError(`Line ${i + 1} of ${name} is not a JSON object.`);
    const record = value as Record<string, unknown>;
    if (typeof record.reply === "string") replies.push(record.reply);
    else if (typeof record.type !== "string") throw new ReplayFormatError(`Line ${i + 1} of ${name} has no "reply" string.`);
  }
  return replies;
}

/** A replay file that cannot be read as replies. */
export class ReplayFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplayFormatError";
  }
}

/** One reply the round's grammar refused, and why. */
export interface ReplayRefusal {
  /** 1-based index of the reply in the replay. */
  reply: number;
  /** The tool the reply called that the round did not offer, when that was the reason. */
  toolNotOffered?: string;
  /** The sentence the turn ends with. */
  reason: string;
}

export interface ReplayEngineOptions {
  /** Context size reported by modelInfo. Default 8192. */
  contextSize?: number;
  /** Characters per streamed chunk. Default 64. */
  chunkChars?: number;
}

export class ReplayEngine implements Engine {
  /** Replies served so far. */
  served = 0;
  /** Replies refused by their round's grammar (the turn ended on each). */
  readonly refusals: ReplayRefusal[] = [];
  /** True when the agent asked for more replies than the replay holds. */
  ranOut = false;
  private readonly recognizers = new Map<string, GbnfRecognizer>();

  constructor(
    private readonly replies: readonly string[],
    private readonly options: ReplayEngineOptions = {},
  ) {}

  /** Replies not yet served. */
  get remaining(): number {
    return this.replies.length - this.served;
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const index = this.served;
    if (index >= this.replies.length) {
      this.ranOut = true;
      throw new EngineError(`The replay has ${this.replies.length} replies but the agent asked for reply ${index + 1}.`, "internal");
    }
    this.served++;
    const text = this.replies[index];
    if (request.grammar !== undefined) {
      const recognizer = this.recognizer(request.grammar);
      if (!recognizer.accepts(text)) {
        const refusal = explainRefusal(recognizer, text, index + 1);
        this.refusals.push(refusal);
        throw new EngineError(refusal.reason, "bad_grammar");
      }
    }
    const started = Date.now();
    const chunk = this.options.chunkChars ?? 64;
    let sent = "";
    for (let i = 0; i < text.length; i += chunk) {
      if (request.signal?.aborted) break;
      const piece = text.slice(i, i + chunk);
      sent += piece;
      request.onText?.(piece);
    }
    const aborted = request.signal?.aborted === true;
    return {
      text: sent,
      tokensIn: request.messages.reduce((n, m) => n + replayTokenCount(m.content), 0),
      tokensOut: replayTokenCount(sent),
      promptEvalMs: 0,
      generateMs: Date.now() - started,
      stopReason: aborted ? "abort" : "eos",
    };
  }

  private recognizer(gbnf: string): GbnfRecognizer {
    let r = this.recognizers.get(gbnf);
    if (!r) {
      r = new GbnfRecognizer(gbnf);
      this.recognizers.set(gbnf, r);
      if (this.recognizers.size > 16) this.recognizers.delete(this.recognizers.keys().next().value as string);
    }
    return r;
  }

  async embed(): Promise<number[][]> {
    throw new EngineError("The replay engine has no embedding model.", "no_model");
  }

  async countTokens(text: string): Promise<number> {
    return replayTokenCount(text);
  }

  async modelInfo(): Promise<ModelInfo> {
    return { path: "replay", name: "replay", architecture: "replay", fileSizeBytes: 0, contextSize: this.options.contextSize ?? 8192, hasChatTemplate: true };
  }
}

/** Why the grammar refused a reply: a tool the round does not offer, arguments it does not allow, or the envelope itself. */
export function explainRefusal(recognizer: GbnfRecognizer, text: string, reply: number): ReplayRefusal {
  let envelope: { thought?: unknown; status?: unknown; message_to_user?: unknown; tool_calls?: unknown } | undefined;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    return { reply, reason: `Replayed reply ${reply} is not JSON, so no round's grammar allows it.` };
  }
  const calls = Array.isArray(envelope?.tool_calls) ? (envelope.tool_calls as { name?: unknown; args?: unknown }[]) : [];
  const head = JSON.stringify({ thought: envelope?.thought, status: envelope?.status, message_to_user: envelope?.message_to_user }).slice(0, -1);
  for (const call of calls) {
    const name = String(call?.name);
    const opening = `${head},"tool_calls":[{"name":${JSON.stringify(name)},"args":`;
    if (!recognizer.acceptsPrefix(opening)) {
      if (!recognizer.acceptsPrefix(`${head},"tool_calls":[`)) break;
      return { reply, toolNotOffered: name, reason: `Replayed reply ${reply} calls ${name}, which this round does not offer, so its grammar refuses the reply.` };
    }
    const alone = `${head},"tool_calls":[${JSON.stringify(call)}]}`;
    if (!recognizer.accepts(alone)) {
      return { reply, reason: `Replayed reply ${reply} gives ${name} arguments that this round's grammar does not allow: ${JSON.stringify(call.args).slice(0, 160)}.` };
    }
  }
  return { reply, reason: `Replayed reply ${reply} is not an envelope this round's grammar allows (keys, order, sizes or whitespace): ${text.slice(0, 160)}.` };
}

/** The engine, with each reply also given to `sink` as the `{"reply": "..."}` line that a replay reads back. */
export function recordReplies(engine: Engine, sink: (line: string) => void): Engine {
  return {
    async generate(request) {
      const result = await engine.generate(request);
      if (result.stopReason !== "abort") sink(JSON.stringify({ reply: result.text }));
      return result;
    },
    embed: (texts, options) => engine.embed(texts, options),
    countTokens: (text) => engine.countTokens(text),
    modelInfo: () => engine.modelInfo(),
  };
}
