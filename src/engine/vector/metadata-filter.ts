/**
 * vectra's metadata filter syntax, evaluated without vectra (the flat store runs where vectra cannot):
 * `{key: value}` is equality, `{key: {$eq|$ne|$gt|$gte|$lt|$lte|$in|$nin: …}}` compare, `$and`/`$or`
 * take lists of filters. An item lacking the key never matches a condition on it, as in vectra.
 */
type Value = string | number | boolean;

/** Whether the metadata passes the filter; an empty or absent filter passes everything. */
export function matchesFilter(metadata: Record<string, Value>, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  for (const [key, condition] of Object.entries(filter)) {
    if (key === "$and") {
      if (!asList(condition, key).every((f) => matchesFilter(metadata, f as Record<string, unknown>))) return false;
    } else if (key === "$or") {
      if (!asList(condition, key).some((f) => matchesFilter(metadata, f as Record<string, unknown>))) return false;
    } else if (!matchesCondition(metadata[key], condition)) {
      return false;
    }
  }
  return true;
}

function matchesCondition(value: Value | undefined, condition: unknown): boolean {
  if (value === undefined || value === null || condition === undefined || condition === null) return false;
  if (typeof condition !== "object") return value === condition;
  for (const [op, operand] of Object.entries(condition as Record<string, unknown>)) {
    if (!compare(value, op, operand)) return false;
  }
  return true;
}

function compare(value: Value, op: string, operand: unknown): boolean {
  switch (op) {
    case "$eq":
      return value === operand;
    case "$ne":
      return value !== operand;
    case "$gt":
      return typeof value === "number" && value > (operand as number);
    case "$gte":
      return typeof value === "number" && value >= (operand as number);
    case "$lt":
      return typeof value === "number" && value < (operand as number);
    case "$lte":
      return typeof value === "number" && value <= (operand as number);
    case "$in":
      return typeof value !== "boolean" && asList(operand, op).includes(value);
    case "$nin":
      return typeof value !== "boolean" && !asList(operand, op).includes(value);
    default:
      throw new Error(`Unknown filter operator "${op}"; use $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $and or $or.`);
  }
}

function asList(operand: unknown, op: string): unknown[] {
  if (!Array.isArray(operand)) throw new Error(`The filter operator "${op}" needs a list.`);
  return operand;
}
