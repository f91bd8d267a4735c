import { describe, expect, it } from "vitest";
import { availableParallelism } from "node:os";
import { chooseThreads } from "../../../src/host/threads";

const MB = 1024 * 1024;

describe("chooseThreads", () => {
  it("gives a tiny model one thread, whatever the core count", () => {
    for (const cores of [1, 2, 8, 64]) expect(chooseThreads(3 * MB, cores)).toBe(1);
  });

  it("never exceeds the available cores and never goes below one", () => {
    for (const size of [MB, 300 * MB, 2000 * MB, 40000 * MB]) {
      for (const cores of [0, 1, 2, 3, 4, 6, 16, availableParallelism()]) {
        const t = chooseThreads(size, cores);
        expect(t).toBeGreaterThanOrEqual(1);
        expect(t).toBeLessThanOrEqual(Math.max(1, cores));
      }
    }
  });

  it("gives larger models more threads, keeping a core for the UI on big machines", () => {
    expect(chooseThreads(4000 * MB, 2)).toBe(2);
    expect(chooseThreads(4000 * MB, 4)).toBe(4);
    expect(chooseThreads(4000 * MB, 16)).toBe(15);
    expect(chooseThreads(500 * MB, 16)).toBe(2);
  });
});
