/**
 * Registered names for MCP tools: `mcp:<server>:<tool>`, each part lowercase letters, digits, `_` and `-` (safe in a
 * GBNF literal and a llama.cpp rule name), deterministic, and collision-free: a name that had to change and clashes
 * with another gets a short hash of the original, so `getSum` and `get_sum` stay two tools.
 */
import { fnv1a36 } from "../../core/text/fnv";

/** Longest part kept before a hash suffix. */
const MAX_PART = 48;

/** FNV-1a, base 36, 4 characters: enough to tell a handful of clashing names apart. */
function shortHash(text: string): string {
  return fnv1a36(text).padStart(4, "0").slice(-4);
}

/** One name part: camelCase split at its humps, other characters to `_`, lowercase, starting with a letter or digit. */
export function namePart(raw: string): string {
  const cleaned = raw
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^[_-]+|[_-]+$/g, "")
    .slice(0, MAX_PART);
  return cleaned || "x";
}

/**
 * Parts for a set of raw names (tools of one server, or the servers): raw name → part. A changed name that collides
 * gets `-<hash>`; the result never depends on the order of `raws`.
 */
export function uniqueParts(raws: readonly string[]): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const raw of new Set(raws)) {
    const part = namePart(raw);
    groups.set(part, [...(groups.get(part) ?? []), raw]);
  }
  const out = new Map<string, string>();
  for (const [part, members] of groups) {
    for (const raw of members) out.set(raw, members.length === 1 || raw === part ? part : `${part}-${shortHash(raw)}`);
  }
  return out;
}

/** The registered name of a tool. */
export function mcpToolName(serverPart: string, toolPart: string): string {
  return `mcp:${serverPart}:${toolPart}`;
}
