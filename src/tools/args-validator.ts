/**
 * A tool's args validator, compiled from its JSON Schema with @cfworker/json-schema: an interpreter of JSON Schema
 * (drafts 4, 7, 2019-09 and 2020-12, formats included) that generates no code, so main.js carries no `new Function`
 * and a validator a fifth of ajv's size. Its findings are reported the way the gatekeeper words them (ajv's wording:
 * `"to" must be <= 10`, `has unknown key "colour"`), leaf findings only.
 */
import { Validator, type OutputUnit, type SchemaDraft } from "@cfworker/json-schema";
import type { ArgsValidator, JsonSchema, SchemaError } from "../core/protocol/registry";

/** The draft a `$schema` names; 2020-12 when it names none. */
export function draftOf(dialect: string): SchemaDraft {
  if (/draft-04/.test(dialect)) return "4";
  if (/draft-0[67]/.test(dialect)) return "7";
  if (dialect.includes("2019-09")) return "2019-09";
  return "2020-12";
}

/** Findings that only say a sub-schema failed; the leaf beneath them says why. */
const WRAPPERS = new Set(["properties", "patternProperties", "items", "prefixItems", "additionalItems", "contains", "$ref", "$dynamicRef", "$recursiveRef", "allOf", "if", "then", "else", "dependentSchemas", "propertyNames"]);

/** The value at a JSON pointer (`#/properties/to/maximum`) inside the schema. */
function at(schema: unknown, pointer: string): unknown {
  let node = schema;
  for (const raw of pointer.replace(/^#\/?/, "").split("/").filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const quoted = (text: string): string | undefined => /"((?:[^"\\]|\\.)*)"/.exec(text)?.[1];

function message(unit: OutputUnit, limit: unknown): string {
  const n = String(limit);
  switch (unit.keyword) {
    case "type":
      return `must be ${Array.isArray(limit) ? limit.join(",") : n}`;
    case "required":
      return `must have required property '${quoted(unit.error) ?? ""}'`;
    case "maximum":
      return `must be <= ${n}`;
    case "minimum":
      return `must be >= ${n}`;
    case "exclusiveMaximum":
      return `must be < ${n}`;
    case "exclusiveMinimum":
      return `must be > ${n}`;
    case "maxLength":
      return `must NOT have more than ${n} characters`;
    case "minLength":
      return `must NOT have fewer than ${n} characters`;
    case "maxItems":
      return `must NOT have more than ${n} items`;
    case "minItems":
      return `must NOT have fewer than ${n} items`;
    case "maxProperties":
      return `must NOT have more than ${n} properties`;
    case "minProperties":
      return `must NOT have fewer than ${n} properties`;
    case "multipleOf":
      return `must be multiple of ${n}`;
    case "enum":
      return "must be equal to one of the allowed values";
    case "const":
      return "must be equal to constant";
    case "pattern":
      return `must match pattern "${n}"`;
    case "format":
      return `must match format "${n}"`;
    case "uniqueItems":
      return "must NOT have duplicate items";
    case "anyOf":
      return "must match a schema in anyOf";
    case "oneOf":
      return "must match exactly one schema in oneOf";
    case "not":
      return "must NOT be valid";
    case "false":
      return "boolean schema is false";
    default:
      return unit.error;
  }
}

/** The leaf findings of one validation, as SchemaErrors. */
export function schemaErrors(schema: unknown, units: readonly OutputUnit[]): SchemaError[] {
  const errors: SchemaError[] = [];
  const unknownKeys = new Set<string>();
  for (const unit of units) {
    if (WRAPPERS.has(unit.keyword)) continue;
    const instancePath = unit.instanceLocation.replace(/^#/, "");
    if (unit.keyword === "additionalProperties" || unit.keyword === "unevaluatedProperties") {
      const key = quoted(unit.error) ?? "";
      unknownKeys.add(`${instancePath}/${key}`);
      errors.push({ instancePath, keyword: "additionalProperties", params: { additionalProperty: key }, message: `must NOT have additional properties` });
      continue;
    }
    // The property that additionalProperties refused is also reported against `false`; once is enough.
    if (unit.keyword === "false" && unknownKeys.has(instancePath)) continue;
    const limit = at(schema, unit.keywordLocation);
    errors.push({ instancePath, keyword: unit.keyword, params: {}, message: message(unit, limit) });
  }
  return errors;
}

/** Compiles the schema once; each call validates and leaves its findings on `.errors` (null when valid). */
export function compileArgsValidator(schema: JsonSchema, dialect = ""): ArgsValidator {
  const validator = new Validator(schema, draftOf(dialect), false);
  const validate: ArgsValidator = (args: unknown): boolean => {
    const result = validator.validate(args);
    validate.errors = result.valid ? null : schemaErrors(schema, result.errors);
    return result.valid;
  };
  validate.errors = null;
  return validate;
}
