import "../../fakes/node-dom";
import { describe, expect, it } from "vitest";
import { installDomHelpers } from "../../fakes/dom";
import { renderWordDiff } from "../../../src/plugin/chat/word-diff-preview";
import { unifiedDiff } from "../../../src/tools/line-diff";

installDomHelpers();

function draw(before: string, after: string): HTMLElement {
  const pre = document.createElement("pre");
  renderWordDiff(pre, unifiedDiff(before, after, "Garden.md"));
  return pre;
}

describe("confirmation cards show word-level diffs", () => {
  it("marks only the changed words of a changed line (vault:edit, vault:write)", () => {
    const pre = draw("# Garden\nThe tomatos need water every day.\nEnd\n", "# Garden\nThe tomatoes need water twice a day.\nEnd\n");
    const removed = pre.querySelector(".is-removed")!;
    const added = pre.querySelector(".is-added")!;
    expect(removed.textContent).toBe("-The tomatos need water every day.");
    expect(added.textContent).toBe("+The tomatoes need water twice a day.");
    expect(Array.from(removed.querySelectorAll("del")).map((d) => d.textContent)).toEqual(["tomatos", "every"]);
    expect(Array.from(added.querySelectorAll("ins")).map((d) => d.textContent)).toEqual(["tomatoes", "twice a"]);
  });

  it("marks appended lines whole (vault:append) and keeps context lines plain", () => {
    const pre = draw("- one\n", "- one\n- two\n");
    const added = Array.from(pre.querySelectorAll(".is-added"));
    expect(added.map((a) => a.textContent)).toEqual(["+- two"]);
    expect(added[0].querySelector("ins")?.textContent).toBe("- two");
    expect(pre.querySelector(".is-removed") ?? null).toBeNull();
  });
});
