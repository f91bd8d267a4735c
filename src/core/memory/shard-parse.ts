/**
 * A stored full-text shard written and parsed in time slices. One JSON.parse of a 1 MB shard (10,000 notes make 16 of them) held
 * the thread 20–60 ms; most of it is `post`, the postings as plain numbers, which is written last (exportShards'
 * key order). So the text before `"post":[` is parsed as one small object, and the numbers in pieces of about
 * 64 KB with a pause between. Any other layout (whitespace, another key order, a hand-edited file) is parsed whole:
 * importShard's checks decide whether it is usable either way.
 */
import type { CompactShard, ExportedShard } from "./text-engine";
import type { TimeSlices } from "./yield";

const POST_KEY = '"post":[';
/** Characters of the postings parsed at once (about 2 ms of work). */
const PIECE = 64 * 1024;

export async function parseShard(text: string, slices: TimeSlices): Promise<CompactShard> {
  // The postings hold only digits, commas and minus signs, so the key's last occurrence is the real one.
  const at = text.lastIndexOf(POST_KEY);
  const start = at + POST_KEY.length;
  if (at < 0 || !text.endsWith("]}") || /[^0-9,.eE+-]/.test(text.slice(start, Math.min(text.length - 2, start + 64)))) {
    return JSON.parse(text) as CompactShard;
  }
  const head = JSON.parse(`${text.slice(0, at)}"post":[]}`) as CompactShard;
  await slices.maybePause();
  const end = text.length - 2;
  const pieces: number[][] = [];
  for (let from = start; from < end; ) {
    let to = Math.min(end, from + PIECE);
    if (to < end) {
      const comma = text.indexOf(",", to);
      to = comma < 0 || comma > end ? end : comma;
    }
    pieces.push(JSON.parse(`[${text.slice(from, to)}]`) as number[]);
    from = to + 1;
    await slices.maybePause();
  }
  head.post = pieces.length === 1 ? pieces[0] : ([] as number[]).concat(...pieces);
  return head;
}

/**
 * Exactly `JSON.stringify` of the shard with its chunks of postings joined (the postings are integers and come last),
 * a chunk at a time with a pause between: one stringify of a 1 MB shard held the thread as long as one parse.
 */
export async function stringifyShard(shard: ExportedShard, slices: TimeSlices): Promise<string> {
  const { post, ...head } = shard;
  const parts = [`${JSON.stringify(head).slice(0, -1)},${POST_KEY}`];
  await slices.maybePause();
  let first = true;
  for (const chunk of post) {
    if (chunk.length === 0) continue;
    parts.push((first ? "" : ",") + chunk.join(","));
    first = false;
    await slices.maybePause();
  }
  parts.push("]}");
  return parts.join("");
}
