/** The engine host bundle as `npm run build` makes it (esbuild.config.mjs's buildHost, run from the repository root). */
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** The bundled engine host's source text. */
export async function buildHostBundle(): Promise<string> {
  const { buildHost } = (await import(new URL("../../esbuild.config.mjs", import.meta.url).href)) as { buildHost(): Promise<string> };
  // The config resolves entry points against the working directory.
  const cwd = process.cwd();
  process.chdir(repoRoot);
  try {
    return await buildHost();
  } finally {
    process.chdir(cwd);
  }
}
