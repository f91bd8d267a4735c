/** `--replay F.jsonl` for the commands that take it (ask, edit): the file's recorded replies as an engine. */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseReplayLines, ReplayEngine, ReplayFormatError } from "../engine/replay";
import { UsageError } from "./cli-types";

/** The replay engine over the file; a missing, empty or malformed file is a UsageError with one sentence. */
export function replayEngineFromFile(path: string): ReplayEngine {
  const file = resolve(path);
  if (!existsSync(file)) throw new UsageError(`The replay file ${file} does not exist.`);
  try {
    const replies = parseReplayLines(readFileSync(file, "utf8"), file);
    if (replies.length === 0) throw new UsageError(`The replay file ${file} holds no {"reply": ...} lines.`);
    return new ReplayEngine(replies);
  } catch (err) {
    if (err instanceof ReplayFormatError) throw new UsageError(err.message);
    throw err;
  }
}
