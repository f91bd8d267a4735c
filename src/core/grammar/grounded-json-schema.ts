/**
 * Grounded args as JSON Schema, for engines that constrain replies through a server's JSON Schema support
 * (OpenAI-compatible `response_format`). The variants are grounded-args.ts's own — a generic variant, and one per
 * note in context with `path` that note's spellings, `heading` one of its headings and `key` one of its properties'
 * keys — with the placeholders replaced by what JSON Schema can say:
 *
 * - the vault's paths, and the paths outside the notes in context, as `$ref`s to one `enum` each in the envelope's
 *   `$defs` (once, however many tools name a path), while the enums stay within `maxEnumValues` and OpenAI's
 *   documented quota (ENUM_QUOTA); beyond that the arg is a free string and the gatekeeper refuses a missing path
 *   after generation, naming the nearest ones;
 * - the vault's tags (with and without `#`) the same way, as `$defs.vaultTags`;
 * - a path arg of some kinds (`pdf:read`'s path) as a `$ref` to the vault's files of those kinds,
 *   `$defs.vaultFiles_<exts>` (taken first: small, and what keeps a PDF tool off a note); none of the kind: free;
 * - an edit's `find` stays a free string: JSON Schema cannot say "a substring of this text" (a `pattern` of every
 *   substring would be the note's text rule again, which servers' regex engines do not take), so the turn loop
 *   refuses text that is not in the note after generation and offers the note's nearest lines.
 */
import type { GroundingNote } from "../ports/agent";
import { ENVELOPE_STATUSES } from "../protocol/envelope";
import { absentKinds, callable, groundedVariants, PLACEHOLDER, placeholderKinds, type EnvelopeGrounding } from "./grounded-args";
import type { GrammarTool, JsonSchema } from "./types";
import { MAX_GROUNDED_NOTES } from "./vault-grounding";
import type { VaultPathIndex } from "./vault-paths";
import type { VaultTagSet } from "./vault-tags";

/** The `$defs` names of the shared enums. */
export const SCHEMA_DEFS = { paths: "vaultPaths", other: "otherPaths", tags: "vaultTags" } as const;
/** The `$defs` name of the enum of the vault's files of some kinds (extensions joined by `_`). */
export const kindDef = (extensions: readonly string[]) => `vaultFiles_${extensions.join("_")}`;

/**
 * OpenAI's documented limits for structured outputs, the strictest of the servers we know (llama-server, vLLM and
 * Ollama take far larger enums, at a cost per token: docs/servers.md): at most 1,000 enum values in a schema, and
 * at most 15,000 characters in one string enum of more than 250 values.
 */
export const ENUM_QUOTA = { totalValues: 1000, largeEnumValues: 250, largeEnumChars: 15_000 } as const;

/** Longest path the tools' path arg takes (a free path string keeps this bound). */
const MAX_PATH_CHARS = 300;

/** What a JSON Schema envelope grounds. */
export interface JsonSchemaGrounding {
  /** The vault's paths (absent or not ready: path args stay free). */
  paths?: VaultPathIndex;
  /** The vault's tags (absent or empty: tag args stay free). */
  tags?: VaultTagSet;
  /** The notes in the conversation's context, most recent first. */
  notes: GroundingNote[];
  /** Most values one shared enum may hold (paths, paths outside context, tags); a larger set is left to the gatekeeper. */
  maxEnumValues: number;
  /** The schema-wide enum quota (default ENUM_QUOTA; a measurement may lift it). */
  quota?: { totalValues: number; largeEnumValues: number; largeEnumChars: number };
}

/** The tools with grounded args schemas, and the shared enums they refer to (to go in the envelope's `$defs`). */
export interface GroundedSchemaTools {
  tools: GrammarTool[];
  defs: Record<string, JsonSchema>;
}

/** The offered tools' args as grounded JSON Schema (tools without grounded args are returned as they are). */
export function groundedSchemaTools(tools: GrammarTool[], g: JsonSchemaGrounding): GroundedSchemaTools {
  const total = g.paths?.ready ? g.paths.size : 0;
  const dependent = tools.some((t) => t.grounding?.heading || t.grounding?.find || t.grounding?.key);
  const notes = dependent ? contextNotes(g.notes, g.paths) : [];
  const inContext = new Set(notes.map((n) => n.path));
  // The paths are listed only when an enum of them could be sent (a large vault is not sorted every round for nothing).
  const paths = total > 0 && total - inContext.size <= g.maxEnumValues ? [...g.paths!.paths()].sort() : [];
  const other = notes.length ? paths.filter((p) => !inContext.has(p)) : paths;
  const tags = g.tags?.size && g.tags.size * 2 <= g.maxEnumValues ? g.tags.list().flatMap((t) => [t, `#${t}`]) : [];
  const candidates: Record<keyof typeof SCHEMA_DEFS, string[]> = { paths, other, tags };
  const grounding: EnvelopeGrounding = {
    paths: total > 0,
    other: total > inContext.size,
    ...(g.tags?.size ? { tags: true } : {}),
    ...(g.paths && absentKinds(tools, g.paths).length ? { absentKinds: absentKinds(tools, g.paths) } : {}),
    // `text: false`: the find arg keeps its own (free string) schema in every variant.
    notes: notes.map((n) => ({ path: n.path, headings: n.headings, ...(n.keys?.length ? { keys: n.keys } : {}), text: false })),
  };
  // The vault's files of each kind a tool's path names, by their extensions joined with `K` (as in the placeholder).
  const kindCandidates = new Map<string, string[]>();
  for (const t of tools) {
    for (const exts of Object.values(t.grounding?.kinds ?? {})) {
      const key = exts.join("K");
      if (total > 0 && !kindCandidates.has(key)) kindCandidates.set(key, [...g.paths!.ofKind(exts).paths()].sort());
    }
  }
  // A tool whose required path names a kind of file the vault has none of is left out (grounded-args.ts, callable).
  const offered = tools.filter((t) => !t.grounding || typeof t.schema !== "object" || callable(t.schema, t.grounding, grounding));
  const build = (enums: Enums, used: Set<string>): GrammarTool[] =>
    offered.map((tool) => {
      if (!tool.grounding || typeof tool.schema !== "object") return tool;
      const variants = groundedVariants(tool.schema, tool.grounding, grounding).map((v) => resolvePlaceholders(v, enums, used));
      if (variants.length === 0) return tool;
      return { ...tool, schema: variants.length === 1 ? variants[0] : { anyOf: variants } };
    });
  // First with every shared enum, to learn which the offered tools use and how many values the notes' own enums
  // hold; then with those that fit the quota, in order: paths outside context, all paths, tags.
  const wanted = new Set<string>();
  const first = build({ ...candidates, kinds: kindCandidates }, wanted);
  const quota = g.quota ?? ENUM_QUOTA;
  let budget = quota.totalValues - ENVELOPE_STATUSES.length - first.reduce((n, t) => n + inlineEnumValues(t.schema), 0);
  const enums: Enums = { paths: null, other: null, tags: null, kinds: new Map() };
  for (const [k, values] of kindCandidates) {
    if (!wanted.has(`kind:${k}`) || values.length === 0 || values.length > g.maxEnumValues || values.length > budget) continue;
    if (values.length > quota.largeEnumValues && values.reduce((n, v) => n + v.length, 0) > quota.largeEnumChars) continue;
    enums.kinds.set(k, values);
    budget -= values.length;
  }
  for (const k of ["other", "paths", "tags"] as const) {
    const values = candidates[k];
    if (!wanted.has(k) || values.length === 0 || values.length > g.maxEnumValues || values.length > budget) continue;
    if (values.length > quota.largeEnumValues && values.reduce((n, v) => n + v.length, 0) > quota.largeEnumChars) continue;
    enums[k] = values;
    budget -= values.length;
  }
  const used = new Set<string>();
  const out = build(enums, used);
  const defs: Record<string, JsonSchema> = {};
  for (const k of used) {
    if (k.startsWith("kind:")) defs[kindDef(k.slice(5).split("K"))] = { type: "string", enum: enums.kinds.get(k.slice(5))! };
    else defs[SCHEMA_DEFS[k as keyof typeof SCHEMA_DEFS]] = { type: "string", enum: enums[k as keyof typeof SCHEMA_DEFS]! };
  }
  return { tools: out, defs };
}

/** The shared enums to refer to (null or missing: that arg stays free), the kinds' by their extensions joined with `K`. */
type Enums = Record<keyof typeof SCHEMA_DEFS, string[] | null> & { kinds: Map<string, string[]> };

/** Enum values written inside a schema (the notes' spellings, headings and keys; shared enums are `$ref`s). */
function inlineEnumValues(schema: unknown): number {
  if (Array.isArray(schema)) return schema.reduce((n: number, s) => n + inlineEnumValues(s), 0);
  if (!schema || typeof schema !== "object") return 0;
  let n = 0;
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) n += k === "enum" && Array.isArray(v) ? v.length : inlineEnumValues(v);
  return n;
}

/**
 * The envelope schema with its shared enums opened up (each a free string): for a server that refused the grounded
 * schema as too large, so the reply keeps its form and the gatekeeper checks the ground after generation.
 */
export function withoutVaultEnums(schema: Record<string, unknown>): Record<string, unknown> {
  const defs = schema.$defs as Record<string, unknown> | undefined;
  if (!defs) return schema;
  const open = Object.fromEntries(Object.keys(defs).map((k) => [k, { type: "string", maxLength: MAX_PATH_CHARS }]));
  return { ...schema, $defs: { ...defs, ...open } };
}

/** The notes in context that exist in the vault, once each, the most recent MAX_GROUNDED_NOTES (as the grammar takes them). */
function contextNotes(notes: GroundingNote[], paths: VaultPathIndex | undefined): GroundingNote[] {
  const seen = new Set<string>();
  const out: GroundingNote[] = [];
  for (const n of notes) {
    if (seen.has(n.path) || !paths?.has(n.path)) continue;
    seen.add(n.path);
    out.push(n);
    if (out.length >= MAX_GROUNDED_NOTES) break;
  }
  return out;
}

/** A variant with each placeholder `const` replaced by a `$ref` to its shared enum, or by the arg's own free schema. */
function resolvePlaceholders(variant: JsonSchema, enums: Enums, used: Set<string>): JsonSchema {
  if (typeof variant !== "object") return variant;
  const props = { ...((variant.properties ?? {}) as Record<string, Record<string, unknown>>) };
  for (const [key, prop] of Object.entries(props)) {
    const kinds = placeholderKinds(prop.const);
    if (kinds) {
      const values = enums.kinds.get(kinds.join("K"));
      if (values?.length) {
        used.add(`kind:${kinds.join("K")}`);
        props[key] = { $ref: `#/$defs/${kindDef(kinds)}` };
      } else {
        const { const: _placeholder, ...free } = prop;
        props[key] = free;
      }
      continue;
    }
    const which = prop.const === PLACEHOLDER.path ? "paths" : prop.const === PLACEHOLDER.other ? "other" : prop.const === PLACEHOLDER.tag ? "tags" : null;
    if (!which) continue;
    if (enums[which]) {
      used.add(which);
      props[key] = { $ref: `#/$defs/${SCHEMA_DEFS[which]}` };
    } else {
      const { const: _placeholder, ...free } = prop;
      props[key] = free;
    }
  }
  return { ...variant, properties: props };
}
