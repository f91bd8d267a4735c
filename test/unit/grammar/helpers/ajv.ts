/** The oracle: ajv draft 2020-12 with ajv-formats, as the gatekeeper validates. */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { JsonSchema } from "../../../../src/core/grammar";

export function makeAjv() {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  (addFormats as unknown as (a: unknown) => void)(ajv);
  return ajv;
}

const shared = makeAjv();

/** A validator for the schema (compiled once per call site). */
export function validatorFor(schema: JsonSchema): (value: unknown) => boolean {
  const v = shared.compile(schema as object);
  return (value) => v(value);
}
