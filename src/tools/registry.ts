/**
 * The tool registry: every ToolDefinition checked once at startup (unique names, non-empty JSON Schemas,
 * aliases that point at real keys), with the JSON Schema that both the grammar and the validator use.
 */
import { z } from "zod";
import Ajv2020, { type ErrorObject, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { ToolDefinition } from "../core/protocol/tool";

/** A JSON Schema object as produced by `z.toJSONSchema`. */
export type JsonSchema = Record<string, unknown>;

/** What the grammar compiler needs of a tool. */
export interface GrammarTool {
  name: string;
  schema: JsonSchema;
}

/** A tool after the startup checks, with its compiled validator. */
export interface RegisteredTool {
  definition: ToolDefinition;
  /** The args' JSON Schema (draft 2020-12, input form: defaulted keys optional, unknown keys refused). */
  schema: JsonSchema;
  /** Top-level property names in declaration order. */
  keys: string[];
  /** Required top-level property names. */
  required: string[];
  /** ajv validator compiled from `schema`. */
  validate: ValidateFunction;
}

/** A catalog that fails the startup checks; the message names the tool and the fix. */
export class ToolRegistryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolRegistryError";
  }
}

const TOOL_NAME = /^[a-z][a-z0-9_-]*:[a-z][a-z0-9_-]*$/;

/** The JSON Schema a tool's args compile to; the grammar is built from exactly this object. */
export function toolArgsSchema(args: z.ZodObject): JsonSchema {
  // Input form: keys with defaults may be omitted by the model; zod fills them after validation.
  const schema = z.toJSONSchema(args, { io: "input", unrepresentable: "any" }) as JsonSchema;
  schema.additionalProperties = false;
  return schema;
}

export class ToolRegistry {
  private readonly byName = new Map<string, RegisteredTool>();
  private readonly ajv: Ajv2020;

  constructor(tools: readonly ToolDefinition[]) {
    this.ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(this.ajv);
    for (const definition of tools) this.add(definition);
  }

  private add(definition: ToolDefinition): void {
    const name = definition.name;
    if (!TOOL_NAME.test(name)) {
      throw new ToolRegistryError(`Tool name "${name}" must look like "family:verb" in lowercase letters, digits, dashes and underscores.`);
    }
    if (this.byName.has(name)) throw new ToolRegistryError(`Two tools are named "${name}"; rename one of them.`);
    if (name.split(":")[0] !== definition.family) {
      throw new ToolRegistryError(`Tool "${name}" declares family "${definition.family}" but its name starts with "${name.split(":")[0]}".`);
    }
    const schema = toolArgsSchema(definition.args);
    const properties = (schema.properties ?? {}) as Record<string, unknown>;
    const keys = Object.keys(properties);
    if (schema.type !== "object" || keys.length === 0 && Object.keys(definition.args.shape).length > 0) {
      throw new ToolRegistryError(`Tool "${name}" has args whose JSON Schema came out empty; use z.toJSONSchema-compatible Zod 4 types.`);
    }
    for (const key of keys) {
      const prop = properties[key];
      if (!prop || typeof prop !== "object" || Object.keys(prop).length === 0) {
        throw new ToolRegistryError(`Tool "${name}" arg "${key}" has an empty JSON Schema; give it a concrete Zod type.`);
      }
    }
    for (const [wrong, right] of Object.entries(definition.aliases ?? {})) {
      if (!keys.includes(right)) throw new ToolRegistryError(`Tool "${name}" alias "${wrong}" points at "${right}", which is not one of its args (${keys.join(", ")}).`);
      if (keys.includes(wrong)) throw new ToolRegistryError(`Tool "${name}" alias "${wrong}" is itself an arg name; remove the alias.`);
    }
    for (const p of definition.pathArgs ?? []) {
      if (!keys.includes(p)) throw new ToolRegistryError(`Tool "${name}" lists path arg "${p}", which is not one of its args.`);
    }
    const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
    let validate: ValidateFunction;
    try {
      validate = this.ajv.compile(schema);
    } catch (err) {
      throw new ToolRegistryError(`Tool "${name}" has a JSON Schema ajv cannot compile: ${(err as Error).message}`);
    }
    this.byName.set(name, { definition, schema, keys, required, validate });
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

  /** Name + schema pairs for the grammar compiler (all tools, or the named ones in the given order). */
  grammarTools(names?: readonly string[]): GrammarTool[] {
    const picked = names ? names.map((n) => this.byName.get(n)).filter((t): t is RegisteredTool => !!t) : this.list();
    return picked.map((t) => ({ name: t.definition.name, schema: t.schema }));
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

/** ajv errors as one readable sentence fragment: `"path" must be string; must have required property "content"`. */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return "the arguments do not match the schema";
  return errors
    .slice(0, 4)
    .map((e) => {
      const where = e.instancePath ? `"${e.instancePath.slice(1).replace(/\//g, ".")}" ` : "";
      if (e.keyword === "additionalProperties") return `${where}has unknown key "${String((e.params as { additionalProperty?: string }).additionalProperty)}"`;
      return `${where}${e.message ?? "is invalid"}`;
    })
    .join("; ");
}
