/**
 * An ajv validator for a JSON Schema of any draft the compiler reads: 2019-09 and 2020-12 (or none
 * declared) with Ajv2020, 06/07 with ajv's draft-07 class, and 04 rewritten to draft-07 first
 * (boolean exclusive bounds become numbers, `id` becomes `$id`). Formats as the gatekeeper checks them.
 */
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { draftOf } from "../core/grammar/schema-document";
import type { JsonSchema } from "../core/grammar";

type Validate = (value: unknown) => boolean;

function draft04To07(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(draft04To07);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === "enum" || k === "const" || k === "default" || k === "examples") out[k] = v;
    else if (k === "id" && typeof v === "string") out.$id = v;
    else out[k] = draft04To07(v);
  }
  for (const [flag, bound] of [
    ["exclusiveMinimum", "minimum"],
    ["exclusiveMaximum", "maximum"],
  ] as const) {
    if (typeof out[flag] !== "boolean") continue;
    if (out[flag] === true && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}

/** A validator for the schema; throws with ajv's message when ajv cannot compile it. */
export function schemaValidator(schema: JsonSchema): Validate {
  const draft = draftOf(schema);
  const options = { strict: false, allErrors: false, validateFormats: true };
  const ajv = draft >= 2019 ? new Ajv2020(options) : new Ajv(options);
  (addFormats as unknown as (a: unknown) => void)(ajv);
  let s = draft === 4 ? draft04To07(schema) : schema;
  if (s && typeof s === "object") {
    // The meta-schema is implied by the class; naming an unregistered one would fail the compile.
    const { $schema: _ignored, ...rest } = s as Record<string, unknown>;
    s = rest;
  }
  const validate = ajv.compile(s as object);
  return (value) => validate(value);
}
