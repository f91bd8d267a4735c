/**
 * BFCL's argument checker, as its AST checker does it: every parameter the call gives must be one of the
 * acceptable values ("" among them means it may be left out), no unknown parameters, strings compared after
 * lowercasing and dropping spaces and the punctuation ,./-_*^ , an int accepted where a float is expected, lists
 * element by element, and dicts key by key against their own lists of acceptable values (one level).
 */

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** BFCL's `standardize_string`. */
export function standardize(text: string): string {
  return text.toLowerCase().replace(/[ ,./\-_*^]/g, "");
}

/** One actual value against one acceptable value. */
export function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof expected === "string") return typeof actual === "string" && standardize(actual) === standardize(expected);
  if (typeof expected === "number") return typeof actual === "number" && actual === expected;
  if (typeof expected === "boolean" || expected === null) return actual === expected;
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((e, i) => sameValue(actual[i], e));
  if (isObject(expected)) {
    // A dict candidate: each key maps to its own list of acceptable values.
    if (!isObject(actual)) return false;
    if (Object.keys(actual).some((k) => !(k in expected))) return false;
    return Object.entries(expected).every(([k, list]) => {
      const options = Array.isArray(list) ? list : [list];
      return k in actual ? options.some((o) => o !== "" && sameValue(actual[k], o)) : options.includes("");
    });
  }
  return false;
}

/** Whether a call's args satisfy BFCL's acceptable values for every parameter. */
export function argsAcceptable(args: Record<string, unknown>, acceptable: Record<string, unknown[]>): boolean {
  if (Object.keys(args).some((k) => !(k in acceptable))) return false;
  return Object.entries(acceptable).every(([param, options]) =>
    param in args && args[param] !== undefined ? options.some((o) => o !== "" && sameValue(args[param], o)) : options.includes(""),
  );
}
