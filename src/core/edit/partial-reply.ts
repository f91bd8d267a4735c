/**
 * A reply as far as it has been generated, read for the streaming preview: the edits completed so far, or the
 * rewrite's text so far. Returns null while nothing can be shown yet.
 */
import type { EditReply } from "./proposal";

export function partialReply(text: string): { reply: EditReply; complete: boolean } | null {
  if (text.startsWith('{"rewrite":"')) {
    for (let cut = text.length; cut >= Math.max(12, text.length - 8); cut--) {
      try {
        const value = JSON.parse(text.slice(0, cut) + '"}') as { rewrite: string };
        return { reply: { rewrite: value.rewrite }, complete: false };
      } catch {
        // An escape cut in the middle: try a few characters less.
      }
    }
    return null;
  }
  if (!text.startsWith('{"edits":[')) return null;
  const end = lastEditEnd(text);
  if (end < 0) return { reply: { edits: [] }, complete: false };
  try {
    const value = JSON.parse(text.slice(0, end) + "]}") as { edits: { find: string; replace: string }[] };
    return { reply: { edits: value.edits }, complete: false };
  } catch {
    return null;
  }
}

/** The offset just after the last edit object that is complete (depth back to the array), or -1. */
function lastEditEnd(text: string): number {
  let depth = 0;
  let inString = false;
  let last = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 2 && c === 0x7d) last = i + 1;
    }
  }
  return last;
}
