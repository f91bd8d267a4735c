/**
 * Vitest global setup: every temp folder a test (or a process it starts) makes goes under one fresh folder,
 * removed when the run ends, so runs leave nothing behind in the system's temp folder even when a test fails.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), "vault-agent-tests-"));
  // os.tmpdir() reads TMPDIR on every call; test workers and the processes they spawn inherit it.
  process.env.TMPDIR = root;
  return () => rmSync(root, { recursive: true, force: true });
}
