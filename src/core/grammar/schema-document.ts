/**
 * One JSON Schema document as the compiler reads it: which draft it declares, where each subschema
 * sits (its JSON pointer), its base URI (`id` / `$id`), its anchors, and `$ref` resolution against
 * them. Indexing is iterative, so no document depth can overflow the stack.
 */
import type { JsonSchema } from "./types";
import { isSchema, type Schema } from "./schema-words";

/** The drafts the compiler distinguishes: 4 (also 3), 6, 7, 2019-09 and 2020-12 (also "none declared"). */
export type Draft = 4 | 6 | 7 | 2019 | 2020;

/** Base URI of a document that declares none. */
const DEFAULT_BASE = "urn:vault-agent:schema";
/** Subschemas nested deeper than this are not indexed (the compiler refuses them anyway). */
export const MAX_SCHEMA_DEPTH = 256;

/** Keywords whose value is one subschema. */
const SCHEMA_KEYWORDS = ["additionalProperties", "additionalItems", "items", "not", "if", "then", "else", "contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"];
/** Keywords whose value is an array of subschemas. */
const ARRAY_KEYWORDS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to subschemas. */
const MAP_KEYWORDS = ["properties", "patternProperties", "definitions", "$defs", "dependencies", "dependentSchemas"];

export function draftOf(root: JsonSchema): Draft {
  const declared = isSchema(root) && typeof root.$schema === "string" ? root.$schema : "";
  if (/draft-0[34]\b/.test(declared)) return 4;
  if (/draft-06\b/.test(declared)) return 6;
  if (/draft-07\b/.test(declared)) return 7;
  if (/2019-09/.test(declared)) return 2019;
  return 2020;
}

export const escapePointer = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");

/** Where a `$ref` led: the schema, its base URI and pointer. */
export interface ResolvedRef {
  schema: JsonSchema;
  base: string;
  pointer: string;
}

export class SchemaDocument {
  readonly draft: Draft;
  private readonly pointers = new Map<object, string>();
  private readonly bases = new Map<object, string>();
  /** Absolute URIs (resources without a fragment, anchors with one) → subschema. */
  private readonly byUri = new Map<string, Schema>();

  constructor(readonly root: JsonSchema) {
    this.draft = draftOf(root);
    this.index();
  }

  /** The JSON pointer of a subschema of this document, if it is one. */
  pointerOf(node: JsonSchema): string | undefined {
    return typeof node === "object" ? this.pointers.get(node) : undefined;
  }

  /** The base URI in effect for a subschema (its own `$id` included). */
  baseOf(node: JsonSchema): string | undefined {
    return typeof node === "object" ? this.bases.get(node) : undefined;
  }

  private idOf(node: Schema): string | undefined {
    const id = this.draft === 4 ? (node.id ?? node.$id) : (node.$id ?? (this.draft === 2020 ? node.id : undefined));
    return typeof id === "string" && id !== "" ? id : undefined;
  }

  private index(): void {
    const stack: Array<{ node: unknown; pointer: string; base: string; depth: number }> = [{ node: this.root, pointer: "", base: DEFAULT_BASE, depth: 0 }];
    if (isSchema(this.root)) this.byUri.set(DEFAULT_BASE, this.root);
    while (stack.length) {
      const { node, pointer, base: parentBase, depth } = stack.pop()!;
      if (!isSchema(node) || this.pointers.has(node) || depth > MAX_SCHEMA_DEPTH) continue;
      let base = parentBase;
      const id = this.idOf(node);
      if (id !== undefined) {
        const uri = resolveUri(id, parentBase);
        if (uri !== undefined) {
          const hash = uri.indexOf("#");
          const fragment = hash < 0 ? "" : uri.slice(hash + 1);
          if (fragment !== "" && !fragment.startsWith("/")) this.byUri.set(uri, node);
          else {
            base = hash < 0 ? uri : uri.slice(0, hash);
            this.byUri.set(base, node);
          }
        }
      }
      if (typeof node.$anchor === "string") this.byUri.set(`${base}#${node.$anchor}`, node);
      this.pointers.set(node, pointer);
      this.bases.set(node, base);
      const push = (child: unknown, at: string) => stack.push({ node: child, pointer: at, base, depth: depth + 1 });
      for (const k of SCHEMA_KEYWORDS) if (isSchema(node[k])) push(node[k], `${pointer}/${k}`);
      for (const k of ARRAY_KEYWORDS) {
        const list = node[k];
        if (Array.isArray(list)) list.forEach((c, i) => push(c, `${pointer}/${k}/${i}`));
      }
      for (const k of MAP_KEYWORDS) {
        const map = node[k];
        if (isSchema(map)) for (const [name, c] of Object.entries(map)) push(c, `${pointer}/${k}/${escapePointer(name)}`);
      }
    }
  }

  /**
   * Resolves a `$ref` against a base URI; a string is the reason it does not resolve. A fragment-only
   * reference that fails against a nested `id` is retried against the document root: many published
   * schemas give subschemas ids while their `#/definitions/...` references mean the root.
   */
  resolve(ref: string, base: string): ResolvedRef | string {
    // The document never changes, so each (reference, base) resolves once.
    const key = `${base}\u0000${ref}`;
    const known = this.resolved.get(key);
    if (known !== undefined) return known;
    const result = this.resolveUncached(ref, base);
    this.resolved.set(key, result);
    return result;
  }

  private readonly resolved = new Map<string, ResolvedRef | string>();

  private resolveUncached(ref: string, base: string): ResolvedRef | string {
    const first = this.resolveOnce(ref, base);
    if (typeof first === "string" && ref.startsWith("#") && base !== DEFAULT_BASE) {
      const again = this.resolveOnce(ref, DEFAULT_BASE);
      if (typeof again !== "string") return again;
    }
    return first;
  }

  private resolveOnce(ref: string, base: string): ResolvedRef | string {
    const uri = resolveUri(ref, base);
    if (uri === undefined) return `the reference "${ref}" is not a valid URI`;
    const hash = uri.indexOf("#");
    const resourceUri = hash < 0 ? uri : uri.slice(0, hash);
    let fragment = hash < 0 ? "" : uri.slice(hash + 1);
    try {
      fragment = decodeURIComponent(fragment);
    } catch {
      return `the reference "${ref}" has a malformed fragment`;
    }
    let resource: JsonSchema | undefined = this.byUri.get(resourceUri);
    if (resource === undefined) return `the reference "${ref}" points outside this document`;
    if (fragment !== "" && !fragment.startsWith("/")) {
      const anchored = this.byUri.get(`${resourceUri}#${fragment}`);
      if (!anchored) return `the anchor "#${fragment}" is not defined`;
      return { schema: anchored, base: this.bases.get(anchored) ?? resourceUri, pointer: this.pointers.get(anchored) ?? "" };
    }
    const resourcePointer = this.pointers.get(resource) ?? "";
    let node: unknown = resource;
    let resolvedBase = this.bases.get(resource) ?? resourceUri;
    if (fragment !== "") {
      for (const raw of fragment.slice(1).split("/")) {
        const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
        if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(part) && Number(part) < node.length) node = node[Number(part)];
        else if (isSchema(node) && Object.prototype.hasOwnProperty.call(node, part)) node = node[part];
        else return `the reference "${ref}" does not resolve`;
        if (isSchema(node) && this.bases.has(node)) resolvedBase = this.bases.get(node)!;
      }
    }
    if (typeof node !== "boolean" && !isSchema(node)) return `the reference "${ref}" does not name a schema`;
    resource = node;
    return { schema: resource, base: resolvedBase, pointer: this.pointerOf(resource) ?? `${resourcePointer}${fragment}` };
  }
}

/** `ref` resolved against `base`, or undefined when either is not a URI. */
function resolveUri(ref: string, base: string): string | undefined {
  if (ref.startsWith("#")) return `${base}${ref}`;
  try {
    return new URL(ref, base).href;
  } catch {
    // A relative reference against a URN base (the default) cannot be resolved by URL: treat it as a name.
    return /^[a-z][a-z0-9+.-]*:/i.test(ref) ? undefined : `${base.replace(/[^/:]*$/, "")}${ref}`;
  }
}
