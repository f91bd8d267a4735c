/** A JSON Schema as plain data (tool args, MCP input schemas); compiled by src/core/grammar, checked by ajv. */
export type JsonSchema = Record<string, unknown>;
