/**
 * Writes a synthetic but realistic vault for benchmarks: daily notes, projects, people, meetings,
 * areas and reference notes in folders; sizes from a log-normal spread (median about 1.5 KB, a few
 * long notes near 20 KB, and with `longEvery` a few of 60-200 KB); frontmatter, headings, tasks, tags and wikilinks
 * between notes, words from a Zipf vocabulary. Seeded, so
 * the same options always write the same vault.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SeededRandom } from "../test-model/prng";
import { wikilink } from "../../core/text/wikilink";

export interface GenerateOptions {
  /** Number of notes (default 10,000). */
  notes?: number;
  /** PRNG seed (default 42). */
  seed?: number;
  /** Every n-th note is a long one, 60 to 200 KB (a book's notes, a pasted transcript); default 0: none. */
  longEvery?: number;
}

export interface GeneratedVault {
  root: string;
  notes: number;
  bytes: number;
  /** Every note path written. */
  paths: string[];
}

const WORDS = (
  "project plan meeting notes idea draft review budget design sync offline queue server client release beta " +
  "customer feedback roadmap milestone risk decision research summary chapter book garden kitchen recipe " +
  "running training health sleep coffee travel train city weekend family friend call email report metric " +
  "latency storage cache index search memory model prompt token vector embedding grammar parser schema " +
  "invoice contract deadline quarter goal habit journal reflection question answer problem solution test " +
  "deploy bug fix refactor module interface port adapter event stream queue backlog sprint estimate scope " +
  "tomato lentil bread oven spice market bike trail park river mountain lake autumn winter spring summer"
).split(" ");
const NAMES = ["Ada", "Ben", "Chen", "Dana", "Eli", "Fatima", "Goran", "Hana", "Ivo", "Jonas", "Kira", "Liam", "Maria", "Nadia", "Omar", "Priya", "Quinn", "Rosa", "Sam", "Tom"];
const SURNAMES = ["Alvarez", "Becker", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Horvat", "Ito", "Jansen", "Kowalski", "Larsen", "Moreau", "Novak", "Okafor", "Patel"];
const TAGS = ["project", "idea", "meeting", "person", "daily", "reading", "health/running", "home/kitchen", "work/q3", "work/q4", "errand", "research", "recipe", "travel", "review"];
const FOLDERS = ["Daily", "Projects", "People", "Meetings", "Areas", "Resources", "Archive", "Inbox"];

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}

/**
 * A vocabulary with natural-language statistics: the common words above plus 8,000 made-up words from
 * syllables, drawn with Zipf's law (rank r has weight 1/r), so a few words are everywhere and most are
 * rare, as in real notes (which is what full-text search cost depends on).
 */
function zipfVocabulary(rand: () => number): () => string {
  const syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "pe", "da", "gri", "shu", "tan", "mor", "vel", "bri", "zen", "qua", "hol", "fin"];
  const vocab = [...WORDS];
  const seen = new Set(vocab);
  while (vocab.length < WORDS.length + 8000) {
    const n = 2 + Math.floor(rand() * 3);
    const w = Array.from({ length: n }, () => syllables[Math.floor(rand() * syllables.length)]).join("");
    if (!seen.has(w)) {
      seen.add(w);
      vocab.push(w);
    }
  }
  const cumulative: number[] = [];
  let total = 0;
  for (let r = 1; r <= vocab.length; r++) cumulative.push((total += 1 / r));
  return () => {
    const x = rand() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo];
  };
}

export function generateVault(root: string, options: GenerateOptions = {}): GeneratedVault {
  const count = options.notes ?? 10_000;
  const rand = prng(options.seed ?? 42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const word = zipfVocabulary(rand);
  const words = (n: number) => Array.from({ length: n }, word).join(" ");
  const sentence = () => {
    const s = words(6 + Math.floor(rand() * 14));
    return s[0].toUpperCase() + s.slice(1) + ".";
  };
  // Titles first, so notes can link to notes written later.
  const paths: string[] = [];
  const start = new Date(2020, 0, 1);
  for (let i = 0; i < count; i++) {
    const folder = FOLDERS[i % FOLDERS.length === 0 ? 0 : Math.floor(rand() * FOLDERS.length)];
    let name: string;
    if (folder === "Daily") {
      const d = new Date(start.getTime() + i * 86_400_000 / 3);
      name = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")} ${i}`;
    } else if (folder === "People") name = `${pick(NAMES)} ${pick(SURNAMES)} ${i}`;
    else name = `${words(2 + Math.floor(rand() * 3))} ${i}`.replace(/^./, (c) => c.toUpperCase());
    const sub = folder === "Projects" || folder === "Resources" ? `/${pick(["Work", "Home", "Learning", "Side"])}` : "";
    paths.push(`${folder}${sub}/${name}.md`);
  }
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    // Log-normal size: median ~1.5 KB, long tail to ~20 KB.
    const long = (options.longEvery ?? 0) > 0 && i % options.longEvery! === options.longEvery! - 1;
    const target = long ? 60_000 + Math.round(rand() * 140_000) : Math.min(20_000, Math.round(Math.exp(Math.log(1500) + 0.9 * gaussian(rand))));
    const tags = Array.from({ length: Math.floor(rand() * 3) }, () => pick(TAGS));
    const lines: string[] = ["---", `created: 2024-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`];
    if (tags.length) lines.push("tags:", ...[...new Set(tags)].map((t) => `  - ${t}`));
    if (rand() < 0.3) lines.push(`status: ${pick(["active", "done", "paused", "idea"])}`);
    lines.push("---", `# ${paths[i].split("/").pop()!.replace(/\.md$/, "")}`, "");
    let size = lines.join("\n").length;
    while (size < target) {
      const section: string[] = [`## ${words(1 + Math.floor(rand() * 3)).replace(/^./, (c) => c.toUpperCase())}`];
      const paragraphs = 1 + Math.floor(rand() * 3);
      for (let p = 0; p < paragraphs; p++) {
        const sentences = Array.from({ length: 2 + Math.floor(rand() * 5) }, sentence);
        if (rand() < 0.5) sentences.push(`See ${wikilink(pick(paths).split("/").pop()!)}.`);
        if (rand() < 0.2) sentences.push(`#${pick(TAGS)}`);
        section.push(sentences.join(" "), "");
      }
      if (rand() < 0.35) {
        for (let t = 0; t < 1 + Math.floor(rand() * 5); t++) section.push(`- [${rand() < 0.4 ? "x" : " "}] ${words(3 + Math.floor(rand() * 6))}`);
        section.push("");
      }
      const text = section.join("\n");
      lines.push(text);
      size += text.length + 1;
    }
    const content = lines.join("\n") + "\n";
    const file = join(root, paths[i]);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    bytes += Buffer.byteLength(content);
  }
  return { root, notes: count, bytes, paths };
}

function gaussian(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}
