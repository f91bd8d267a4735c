/**
 * Embedding cosine between the message and each tool card. Cards are embedded once per embedding model
 * and cached (in memory, and in an optional store keyed by model id and card text), so only the message
 * is embedded per turn.
 */
import type { IndexStore } from "../ports/index-store";
import { cardText, type ToolCard } from "./tool-card";
import { fnv1a36 } from "../text/fnv";

/** What the scorer needs of an engine. */
export interface Embedder {
  embed(texts: string[], options?: { signal?: AbortSignal }): Promise<number[][]>;
}

/** Cosine below this maps to 0; the scale is stretched so a clear match nears 1. */
const COSINE_FLOOR = 0.2;

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length && i < b.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

export class EmbeddingScorer {
  private vectors: Map<string, number[]> | null = null;

  constructor(
    private readonly cards: readonly ToolCard[],
    private readonly embedder: Embedder,
    /** Identifies the embedding model (its file name or hash): cached vectors are per model. */
    private readonly modelId: string,
    private readonly store?: IndexStore,
  ) {}

  private get storeKey(): string {
    return `router-cards-${this.modelId.replace(/[^A-Za-z0-9._-]/g, "_")}.json`;
  }

  /** Embeds the cards (or loads them from the store) once. */
  async ready(signal?: AbortSignal): Promise<void> {
    if (this.vectors) return;
    const wanted = this.cards.map((c) => ({ name: c.name, text: cardText(c), key: fnv1a36(cardText(c)) }));
    let stored: Record<string, number[]> = {};
    if (this.store) {
      try {
        stored = JSON.parse((await this.store.load(this.storeKey)) ?? "{}") as Record<string, number[]>;
      } catch {
        stored = {}; // A damaged cache is rebuilt.
      }
    }
    const missing = wanted.filter((w) => !stored[w.key]);
    if (missing.length) {
      const vecs = await this.embedder.embed(
        missing.map((m) => m.text),
        { signal },
      );
      missing.forEach((m, i) => (stored[m.key] = vecs[i]));
      if (this.store) {
        const keep: Record<string, number[]> = {};
        for (const w of wanted) keep[w.key] = stored[w.key];
        await this.store.save(this.storeKey, JSON.stringify(keep));
      }
    }
    this.vectors = new Map(wanted.map((w) => [w.name, stored[w.key]]));
  }

  /** Scores in 0..1 per tool name. */
  async score(query: string, signal?: AbortSignal): Promise<Map<string, number>> {
    await this.ready(signal);
    const [q] = await this.embedder.embed([query], { signal });
    const out = new Map<string, number>();
    for (const [name, v] of this.vectors!) {
      const c = cosine(q, v);
      out.set(name, Math.max(0, (c - COSINE_FLOOR) / (1 - COSINE_FLOOR)));
    }
    return out;
  }
}
