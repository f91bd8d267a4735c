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
  // At most one number per two characters ("1,"): read straight into 32-bit integers, not into arrays of JS numbers.
  const out = new Int32Array(Math.ceil((end - start + 1) / 2));
  let n = 0;
  for (let from = start; from < end; ) {
    let to = Math.min(end, from + PIECE);
    if (to < end) {
      const comma = text.indexOf(",", to);
      to = comma < 0 || comma > end ? end : comma;
    }
    const read = readIntegers(text, from, to, out, n);
    if (read < 0) {
      // Anything but small whole numbers (a minus sign, a fraction, an exponent): as JSON reads it, whole.
      head.post = JSON.parse(`[${text.slice(start, end)}]`) as number[];
      return head;
    }
    n = read;
    from = to + 1;
    await slices.maybePause();
  }
  head.post = out.slice(0, n);
  return head;
}

/**
 * The comma-separated numbers of `text` from `from` to `to` written into `out` from `n`: the new count, or -1 when
 * one is not a whole number of 1 to 9 digits (the caller then parses JSON).
 */
function readIntegers(text: string, from: number, to: number, out: Int32Array, n: number): number {
  let value = 0;
  let digits = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      if (digits === 0) return -1;
      out[n++] = value;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 9) {
      // A leading zero is JSON only as the number 0.
      if (digits === 1 && value === 0) return -1;
      value = value * 10 + (c - 48);
      digits++;
    } else return -1;
  }
  if (digits === 0) return -1;
  out[n++] = value;
  return n;
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
