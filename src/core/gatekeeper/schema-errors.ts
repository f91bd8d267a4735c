import type { SchemaError } from "../protocol/registry";

/** Schema errors as one readable sentence fragment: `"path" must be string; must have required property "content"`. */
export function describeSchemaErrors(errors: readonly SchemaError[] | null | undefined): string {
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
