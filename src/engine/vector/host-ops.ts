/** Vector-store operations the engine host serves (vectra). Filled in by the memory layer. */
export const vectorOps: Record<string, (params: unknown) => Promise<unknown>> = {};
