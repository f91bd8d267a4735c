/**
 * Alias repair: wrong keys the model often writes are renamed to the right key before validation.
 * The map is declared with each tool (`file` → `path`); keys that differ only in case or separators are also matched.
 */

export interface AliasRepair {
  /** The repaired args (a new object; the input is not changed). */
  args: Record<string, unknown>;
  /** Each rename made, `from` → `to`. */
  renamed: { from: string; to: string }[];
}

function squash(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, "");
}

export function repairAliases(args: Record<string, unknown>, keys: readonly string[], aliases: Readonly<Record<string, string>> = {}): AliasRepair {
  const known = new Set(keys);
  const bySquash = new Map(keys.map((k) => [squash(k), k]));
  const out: Record<string, unknown> = {};
  const renamed: { from: string; to: string }[] = [];
  // Right keys first, so a correct key always wins over an alias of it.
  for (const [k, v] of Object.entries(args)) if (known.has(k)) out[k] = v;
  for (const [k, v] of Object.entries(args)) {
    if (known.has(k)) continue;
    const target = aliases[k] ?? bySquash.get(squash(k));
    if (target && !(target in out)) {
      out[target] = v;
      renamed.push({ from: k, to: target });
    } else {
      out[k] = v; // Left for the validator to name as unknown.
    }
  }
  return { args: out, renamed };
}
