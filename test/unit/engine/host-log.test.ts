import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HostLog } from "../../../src/engine/client/host-log";

describe("HostLog", () => {
  it("keeps only the last N complete lines plus the unfinished one, joining chunks split mid-line", () => {
    const log = new HostLog(3);
    log.write("one\ntw");
    log.write("o\nthree\nfour\nfi");
    expect(log.lines()).toEqual(["two", "three", "four", "fi"]);
    expect(log.lastHostLine()).toBe("fi");
  });

  it("reports lines written after a mark, and skips its own notes as the host's last line", () => {
    const log = new HostLog(10);
    log.write("before\n");
    const mark = log.mark();
    log.write("parse: error parsing grammar: Undefined rule identifier 'x'\n");
    log.note("engine host exited (exit code 1)");
    expect(log.linesSince(mark)).toEqual(["parse: error parsing grammar: Undefined rule identifier 'x'", "[engine-client] engine host exited (exit code 1)"]);
    expect(log.lastHostLine()).toBe("parse: error parsing grammar: Undefined rule identifier 'x'");
  });

  it("also appends everything to a log file when given one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "host-log-"));
    try {
      const file = join(dir, "engine.log");
      const log = new HostLog(2, file);
      log.write("a\nb\nc\n");
      await new Promise((r) => setTimeout(r, 50));
      expect(readFileSync(file, "utf8")).toBe("a\nb\nc\n");
      expect(log.lines()).toEqual(["b", "c"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
