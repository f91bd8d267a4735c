/**
 * The tool registry: every ToolDefinition checked when it joins (unique names, non-empty JSON Schemas, aliases that
 * point at real keys), with the JSON Schema that both the grammar and the validator use. Tools join and leave at run
 * time (MCP servers start, stop and change their lists); listeners hear of every change.
 */
import * as z from "zod";
import { compileArgsValidator } from "./args-validator";
import type { ToolDefinition } from "../core/protocol/tool";
import type { CatalogChange, GrammarTool, JsonSchema, RegisteredTool, ToolCatalog } from "../core/protocol/registry";

export type { GrammarTool, JsonSchema, RegisteredTool } from "../core/protocol/registry";
export { describeSchemaErrors } from "../core/gatekeeper/schema-errors";

/** A catalog that fails the checks; the message names the tool and the fix. */
export class ToolRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolRegistryError";
  }
}

/** `family:verb`, or `mcp:<server>:<tool>` for MCP tools (the family is everything before the last colon). */
const TOOL_NAME = /^[a-z][a-z0-9_-]*(?::[a-z0-9][a-z0-9_-]*){1,2}$/;

/** The JSON Schema a tool's args compile to; the grammar is built from exactly this object. */
export function toolArgsSchema(args: z.ZodObject): JsonSchema {
  // Input form: keys with defaults may be omitted by the model; zod fills them after validation.
  const schema = z.toJSONSchema(args, { io: "input", unrepresentable: "any" }) as JsonSchema;
  schema.additionalProperties = false;
  return schema;
}

export class ToolRegistry implements ToolCatalog {
  private readonly byName = new Map<string, RegisteredTool>();
  private readonly listeners = new Set<(change: CatalogChange) => void>();

  constructor(tools: readonly ToolDefinition[] = []) {
    for (const definition of tools) {
      this.check(definition, this.byName);
      this.byName.set(definition.name, this.register(definition));
    }
  }

  /** The checks of one tool against the tools it joins; throws a ToolRegistryError. */
  private check(definition: ToolDefinition, others: ReadonlyMap<string, unknown>): void {
    const name = definition.name;
    if (!TOOL_NAME.test(name)) {
      throw new ToolRegistryError(`Tool name "${name}" must look like "family:verb" (or "mcp:server:tool") in lowercase letters, digits, dashes and underscores.`);
    }
    if (others.has(name)) throw new ToolRegistryError(`Two tools are named "${name}"; rename one of them.`);
    const family = name.slice(0, name.lastIndexOf(":"));
    if (family !== definition.family) {
      throw new ToolRegistryError(`Tool "${name}" declares family "${definition.family}" but its name starts with "${family}".`);
    }
  }

  private register(definition: ToolDefinition): RegisteredTool {
    const name = definition.name;
    const given = definition.inputSchema;
    const schema = given ?? toolArgsSchema(definition.args);
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const keys = Object.keys(properties);
    if (schema.type !== "object" && !(given && schema.type === undefined && schema.properties)) {
      throw new ToolRegistryError(`Tool "${name}" has args whose JSON Schema is not an object schema; tools take a JSON object of arguments.`);
    }
    if (!given && keys.length === 0 && Object.keys(definition.args.shape).length > 0) {
      throw new ToolRegistryError(`Tool "${name}" has args whose JSON Schema came out empty; use z.toJSONSchema-compatible Zod 4 types.`);
    }
    if (!given) {
      for (const key of keys) {
        const prop = properties[key];
        if (!prop || typeof prop !== "object" || Object.keys(prop).length === 0) {
          throw new ToolRegistryError(`Tool "${name}" arg "${key}" has an empty JSON Schema; give it a concrete Zod type.`);
        }
      }
    }
    for (const [wrong, right] of Object.entries(definition.aliases ?? {})) {
      if (!keys.includes(right)) throw new ToolRegistryError(`Tool "${name}" alias "${wrong}" points at "${right}", which is not one of its args (${keys.join(", ")}).`);
      if (keys.includes(wrong)) throw new ToolRegistryError(`Tool "${name}" alias "${wrong}" is itself an arg name; remove the alias.`);
    }
    for (const p of definition.pathArgs ?? []) {
      if (!keys.includes(p)) throw new ToolRegistryError(`Tool "${name}" lists path arg "${p}", which is not one of its args.`);
    }
    for (const p of [...(definition.existingPaths ?? []), ...(definition.newPaths ?? [])]) {
      if (!(definition.pathArgs ?? []).includes(p)) throw new ToolRegistryError(`Tool "${name}" marks "${p}" as an existing or new path, but it is not in pathArgs.`);
    }
    for (const [p, exts] of Object.entries(definition.pathKinds ?? {})) {
      if (!(definition.existingPaths ?? []).includes(p)) throw new ToolRegistryError(`Tool "${name}" gives file kinds to "${p}", which is not one of its existing paths.`);
      if (exts.length === 0 || exts.some((e) => !/^[a-z0-9]{1,10}$/.test(e))) throw new ToolRegistryError(`Tool "${name}" gives "${p}" the kinds ${JSON.stringify(exts)}; list extensions in lower case without the dot, e.g. ["pdf"].`);
      if (Object.values(definition.noteArgs ?? {}).length && p === "path") throw new ToolRegistryError(`Tool "${name}" gives file kinds to "path", which its note args depend on; only notes have headings, text and keys.`);
    }
    for (const a of definition.tagArgs ?? []) {
      if (!keys.includes(a)) throw new ToolRegistryError(`Tool "${name}" grounds "${a}" in the vault's tags, but "${a}" is not one of its args.`);
    }
    for (const a of Object.values(definition.noteArgs ?? {})) {
      if (!keys.includes(a) || !(definition.existingPaths ?? []).includes("path")) throw new ToolRegistryError(`Tool "${name}" grounds "${a}" in its note, but "${a}" is not an arg or "path" is not an existing path.`);
    }
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    // The validator gets a copy without `$schema` / `$id`: the dialect picks the draft (servers send draft-07 or
    // 2020-12), and two servers may reuse one `$id`.
    const { $schema, $id: _id, ...body } = schema;
    let validate: RegisteredTool["validate"];
    try {
      validate = compileArgsValidator(body, typeof $schema === "string" ? $schema : "");
    } catch (err) {
      throw new ToolRegistryError(`Tool "${name}" has a JSON Schema the validator cannot compile: ${(err as Error).message}`);
    }
    return { definition, schema, keys, required, validate };
  }

  /**
   * Adds tools and removes others in one change (listeners hear of it once). Throws a ToolRegistryError, changing
   * nothing, when one of the added tools fails its checks.
   */
  update(add: readonly ToolDefinition[], remove: readonly string[] = []): CatalogChange {
    const removed = remove.filter((n) => this.byName.has(n));
    const remaining = new Map([...this.byName].filter(([n]) => !removed.includes(n)));
    const staged = new Map<string, RegisteredTool>();
    for (const definition of add) {
      this.check(definition, new Map([...remaining, ...staged]));
      staged.set(definition.name, this.register(definition));
    }
    for (const n of removed) this.byName.delete(n);
    for (const [n, t] of staged) this.byName.set(n, t);
    const change = { added: [...staged.keys()], removed };
    if (change.added.length || change.removed.length) {
      for (const listener of [...this.listeners]) {
        try {
          listener(change);
        } catch {
          // A failing listener must not leave the others stale.
        }
      }
    }
    return change;
  }

  onChange(listener: (change: CatalogChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Every tool name, in registration order. */
  names(): string[] {
    return [...this.byName.keys()];
  }

  list(): RegisteredTool[] {
    return [...this.byName.values()];
  }

  /** The tool definitions, in registration order (what the router builds its cards from). */
  definitions(): ToolDefinition[] {
    return this.list().map((t) => t.definition);
  }

  /** Name + schema pairs for the grammar compiler (all tools, or the named ones in the given order). */
  grammarTools(names?: readonly string[]): GrammarTool[] {
    const picked = names ? names.map((n) => this.byName.get(n)).filter((t): t is RegisteredTool => !!t) : this.list();
    return picked.map((t) => {
      const d = t.definition;
      if (!d.existingPaths?.length && !d.tagArgs?.length) return { name: d.name, schema: t.schema };
      const kinds = d.pathKinds && Object.keys(d.pathKinds).length ? { kinds: d.pathKinds } : {};
      return { name: d.name, schema: t.schema, grounding: { existingPaths: d.existingPaths ?? [], ...d.noteArgs, ...(d.tagArgs?.length ? { tags: d.tagArgs } : {}), ...kinds } };
    });
  }

  /** Tool names per family, in registration order. */
  families(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const t of this.byName.values()) {
      const list = out.get(t.definition.family) ?? [];
      list.push(t.definition.name);
      out.set(t.definition.family, list);
    }
    return out;
  }
}
