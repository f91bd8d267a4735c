/**
 * What a compile of a subschema depends on, computed once per document so that equal subschemas
 * compile once: a shape id (two subschemas with the same id constrain values identically, `$ref`s
 * compared by the node they resolve to, annotations ignored) and the recursive reference cycles a
 * subschema can reach (strongly connected components of the reference graph, as a bit set). A
 * compile depends on the recursion state only through the open references of those cycles.
 * Everything is iterative or depth-bounded, so no document can overflow the stack.
 */
import type { SchemaDocument } from "./schema-document";
import { MAX_SCHEMA_DEPTH } from "./schema-document";
import { VOCABULARY, isSchema } from "./schema-words";
import type { JsonSchema } from "./types";

/** Keywords whose value is data (compared as JSON), not subschemas. */
const DATA_KEYWORDS = new Set(["enum", "const", "required", "type", "dependentRequired", "pattern", "format"]);
/** Keywords whose value maps names to subschemas (names kept). */
const NAMED_KEYWORDS = new Set(["properties", "patternProperties", "dependencies", "dependentSchemas"]);
/** Object values that are never schemas (skipped when following references). */
const NOT_SCHEMAS = new Set(["enum", "const", "default", "examples"]);
/** Objects one reference graph may hold before cycles are no longer told apart (then every node counts as in one cycle). */
const MAX_GRAPH_NODES = 200_000;

export class SchemaShapes {
  private readonly ids = new WeakMap<object, number>();
  private readonly interned = new Map<string, number>();
  private readonly objectIds = new WeakMap<object, number>();
  private nextObjectId = 0;
  /** Cycle (component) of each node on a reference cycle. */
  private readonly cycleOf = new Map<object, number>();
  /** Bit set of the cycles each graph node reaches (itself included when on one). */
  private readonly reaches = new WeakMap<object, bigint>();
  private built = false;
  /** Number of reference cycles in the document. */
  cycles = 0;

  constructor(private readonly doc: SchemaDocument) {}

  /** The cycle a `$ref` target lies on, if any (only such targets can recurse). */
  cycle(target: object): number | undefined {
    this.build();
    return this.cycleOf.get(target);
  }

  /** Bits of the cycles a (sub)schema can reach through its references. */
  reach(node: unknown, base: string): bigint {
    this.build();
    if (this.cycles === 0 || typeof node !== "object" || node === null) return 0n;
    return this.reachOf(node, base, 0);
  }

  private reachOf(node: object, base: string, depth: number): bigint {
    const known = this.reaches.get(node);
    if (known !== undefined) return known;
    // Not in the graph: an object the compiler made from document nodes; combine its parts.
    if (depth > MAX_SCHEMA_DEPTH) return this.all();
    let bits = 0n;
    for (const e of this.edgesOf(node, base)) bits |= this.reachOf(e.node, e.base, depth + 1);
    return bits;
  }

  /** A node's children (objects and arrays, data keywords skipped) and where its `$ref` leads. */
  private edgesOf(node: object, base: string): Array<{ node: object; base: string }> {
    const out: Array<{ node: object; base: string }> = [];
    const own = isSchema(node) ? (this.doc.baseOf(node) ?? base) : base;
    if (isSchema(node)) {
      const ref = node.$ref ?? node.$recursiveRef ?? node.$dynamicRef;
      if (typeof ref === "string") {
        const r = this.doc.resolve(ref, own);
        if (typeof r !== "string" && typeof r.schema === "object") out.push({ node: r.schema, base: r.base });
      }
    }
    if (Array.isArray(node)) {
      for (const v of node as unknown[]) if (typeof v === "object" && v !== null) out.push({ node: v, base: own });
      return out;
    }
    for (const k of Object.keys(node)) {
      if (NOT_SCHEMAS.has(k)) continue;
      const v = (node as Record<string, unknown>)[k];
      if (typeof v === "object" && v !== null) out.push({ node: v, base: own });
    }
    return out;
  }

  private all(): bigint {
    return (1n << BigInt(this.cycles)) - 1n;
  }

  /**
   * The reference graph over the document's objects (children and `$ref` edges), its cycles by
   * Tarjan's algorithm (iterative), and per node the cycles it reaches.
   */
  private build(): void {
    if (this.built) return;
    this.built = true;
    const root = this.doc.root;
    if (typeof root !== "object") return;
    interface Frame {
      node: object;
      base: string;
      edges: Array<{ node: object; base: string }>;
      next: number;
    }
    const index = new Map<object, number>();
    const low = new Map<object, number>();
    const onStack = new Set<object>();
    const stack: object[] = [];
    const components: object[][] = [];
    let counter = 0;
    // Each node's edges are needed three times (cycles, cyclic components, reach): listed once per base.
    const listed = new Map<object, { base: string; edges: Array<{ node: object; base: string }> }>();
    const edgesOf = (node: object, base: string) => {
      const known = listed.get(node);
      if (known !== undefined && known.base === base) return known.edges;
      const edges = this.edgesOf(node, base);
      listed.set(node, { base, edges });
      return edges;
    };
    const work: Frame[] = [];
    const open = (node: object, base: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, base, edges: edgesOf(node, base), next: 0 });
    };
    open(root, this.doc.baseOf(root) ?? "");
    let overflow = false;
    while (work.length) {
      const f = work[work.length - 1];
      if (f.next < f.edges.length) {
        const e = f.edges[f.next++];
        if (!index.has(e.node)) {
          if (counter >= MAX_GRAPH_NODES) {
            overflow = true;
            break;
          }
          open(e.node, e.base);
        } else if (onStack.has(e.node)) low.set(f.node, Math.min(low.get(f.node)!, index.get(e.node)!));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(f.node)!));
      }
      if (low.get(f.node) === index.get(f.node)) {
        const component: object[] = [];
        let n: object;
        do {
          n = stack.pop()!;
          onStack.delete(n);
          component.push(n);
        } while (n !== f.node);
        components.push(component);
      }
    }
    if (overflow) {
      // Too large to analyse: every node counts as on one cycle reaching itself (sound, shares less).
      this.cycles = 1;
      for (const n of index.keys()) {
        this.cycleOf.set(n, 0);
        this.reaches.set(n, 1n);
      }
      return;
    }
    // Components come out successors first, so each one's reach is known from those it points to.
    const componentOf = new Map<object, number>();
    components.forEach((c, i) => c.forEach((n) => componentOf.set(n, i)));
    const cyclic = components.map((c) => c.length > 1 || edgesOf(c[0], this.doc.baseOf(c[0] as JsonSchema) ?? "").some((e) => e.node === c[0]));
    const bitOf = new Map<number, number>();
    cyclic.forEach((isCycle, i) => {
      if (isCycle) bitOf.set(i, bitOf.size);
    });
    this.cycles = bitOf.size;
    if (this.cycles === 0) return;
    const compReach: bigint[] = [];
    const bases = new Map<object, string>();
    for (const [n] of index) bases.set(n, this.doc.baseOf(n as JsonSchema) ?? "");
    components.forEach((c, i) => {
      let bits = bitOf.has(i) ? 1n << BigInt(bitOf.get(i)!) : 0n;
      for (const n of c) {
        if (bitOf.has(i)) this.cycleOf.set(n, bitOf.get(i)!);
        for (const e of edgesOf(n, bases.get(n)!)) {
          const j = componentOf.get(e.node)!;
          if (j !== i) bits |= compReach[j];
        }
      }
      compReach[i] = bits;
      for (const n of c) this.reaches.set(n, bits);
    });
  }

  /**
   * A number that is equal for two subschemas exactly when they are written alike (keyword values
   * compared structurally, `$ref`s by their resolved node, annotations ignored).
   */
  shape(node: JsonSchema, base: string): number {
    if (typeof node !== "object") return this.intern(node ? "T" : "F");
    return this.shapeOf(node, base, 0);
  }

  private shapeOf(node: object, base: string, depth: number): number {
    const known = this.ids.get(node);
    if (known !== undefined) return known;
    // Past the depth bound a node is only equal to itself.
    if (depth > MAX_SCHEMA_DEPTH) return this.intern(`#${this.objectId(node)}`);
    const own = this.doc.baseOf(node as JsonSchema) ?? base;
    const parts: string[] = [];
    const s = node as Record<string, unknown>;
    for (const k of Object.keys(s).sort()) {
      if (!VOCABULARY.has(k)) continue;
      const v = s[k];
      if (k === "$ref" || k === "$recursiveRef" || k === "$dynamicRef") {
        const r = typeof v === "string" ? this.doc.resolve(v, own) : "not a string";
        parts.push(`${k}=${typeof r === "string" ? `?${JSON.stringify(v)}@${own}` : typeof r.schema === "object" ? `@${this.objectId(r.schema)}` : String(r.schema)}`);
      } else if (DATA_KEYWORDS.has(k)) parts.push(`${k}=${JSON.stringify(v)}`);
      else if (NAMED_KEYWORDS.has(k) && isSchema(v)) {
        const members = Object.keys(v)
          .sort()
          .map((name) => `${JSON.stringify(name)}:${this.valueShape(v[name], own, depth)}`);
        parts.push(`${k}={${members.join(",")}}`);
      } else parts.push(`${k}=${this.valueShape(v, own, depth)}`);
    }
    const id = this.intern(`{${parts.join(";")}}`);
    this.ids.set(node, id);
    return id;
  }

  private valueShape(v: unknown, base: string, depth: number): string {
    if (Array.isArray(v)) return `[${v.map((x) => this.valueShape(x, base, depth + 1)).join(",")}]`;
    if (isSchema(v)) return `#${this.shapeOf(v, base, depth + 1)}`;
    return JSON.stringify(v) ?? "u";
  }

  private intern(text: string): number {
    let id = this.interned.get(text);
    if (id === undefined) {
      id = this.interned.size;
      this.interned.set(text, id);
    }
    return id;
  }

  private objectId(node: object): number {
    let id = this.objectIds.get(node);
    if (id === undefined) {
      id = this.nextObjectId++;
      this.objectIds.set(node, id);
    }
    return id;
  }
}
