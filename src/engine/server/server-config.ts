/**
 * Which server a server engine talks to, and what a connection test found. Pure types and helpers: the plugin's
 * settings import this file, the HTTP engines run in the engine host.
 */
import type { Constraint } from "../../core/ports/engine";
import type { SlotStateFolder } from "./slot-states";

/** "llama-server": llama.cpp's server (GBNF in `grammar`); "openai": any OpenAI-compatible server (JSON Schema). */
export type ServerKind = "llama-server" | "openai";

export interface ServerEngineConfig {
  kind: ServerKind;
  /** The server's address, e.g. `http://192.168.1.20:8080` (a trailing `/v1` is accepted and dropped). */
  url: string;
  /** Sent as `Authorization: Bearer …` to that server only; never logged. */
  apiKey?: string;
  /** The model to ask for; default the server's own (llama-server) or the first it lists (OpenAI-compatible). */
  model?: string;
  /** Context size to assume when the server does not report one (OpenAI-compatible servers); default 4096. */
  contextSize?: number;
  /**
   * llama-server: send the text the grammar forces as part of the prompt instead of sampling it (see
   * forced-text-completion.ts); default false.
   */
  forcedText?: boolean;
  /**
   * llama-server started with `--slot-save-path` on this folder (llama.cpp on this computer): each conversation's slot
   * is saved there when its turn ends and restored when it continues after a restart (saved-slots.ts); absent: none.
   */
  slotStates?: SlotStateFolder;
}

/** What "Test connection" reports. */
export interface ServerProbe {
  kind: ServerKind;
  /** The normalized base URL. */
  url: string;
  /** The model the server runs (or the one configured). */
  model: string;
  /** Tokens per conversation the server runs with, when it says. */
  contextSize?: number;
  /** True when the server takes a GBNF grammar (llama-server). */
  grammar: boolean;
  /** How grammar-bound turns will be constrained on this server. */
  constraint: Constraint;
  /** Whether the embeddings endpoint answers (llama-server started with --embeddings). */
  embeddings: boolean;
  /** Parallel slots (llama-server). */
  slots?: number;
  /** Models the server lists (OpenAI-compatible `/v1/models`). */
  models?: string[];
  /** One sentence about a limitation found (e.g. no JSON Schema support: replies run prompt only). */
  note?: string;
  /** In the renderer: "fetch" (streamed) or "requestUrl" (whole replies), as found by this test. */
  transport?: "fetch" | "requestUrl";
  /** One sentence on how replies travel, when the transport is not plain fetch. */
  transportNote?: string;
}

const KIND_NAMES: Record<ServerKind, string> = { "llama-server": "llama.cpp server", openai: "OpenAI-compatible server" };

/** The base URL without a trailing slash or `/v1`; throws a sentence for something that is not an http(s) URL. */
export function normalizeServerUrl(raw: string): string {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`"${text}" is not a server address; enter one like http://127.0.0.1:8080.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`"${text}" is not an http or https address; enter one like http://127.0.0.1:8080.`);
  url.search = "";
  url.hash = "";
  return url.href.replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** "the llama.cpp server at http://…": how every sentence about this server names it. */
export function serverLabel(config: Pick<ServerEngineConfig, "kind" | "url">): string {
  let url = config.url;
  try {
    url = normalizeServerUrl(config.url);
  } catch {
    // Named as given; the caller reports the bad address.
  }
  return `the ${KIND_NAMES[config.kind]} at ${url}`;
}
