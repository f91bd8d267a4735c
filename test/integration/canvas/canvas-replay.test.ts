import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { FakeCanvasView } from "../../fakes/canvas-view";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const cli = (...args: string[]) => spawnSync(process.execPath, ["--import", tsx, join(root, "src/node/cli.ts"), ...args], { encoding: "utf8", timeout: 240_000, cwd: root });

/** A replay file of envelopes: each round's tool calls, then a last reply that answers. */
function replay(rounds: { name: string; args: unknown }[][], answer: string): string {
  const file = join(mkdtempSync(join(tmpdir(), "canvas-replay-")), "r.jsonl");
  const envelope = (calls: { name: string; args: unknown }[], status: string, message: string | null) =>
    JSON.stringify({ reply: JSON.stringify({ thought: "Canvas work.", status, message_to_user: message, tool_calls: calls }) });
  writeFileSync(file, [...rounds.map((calls) => envelope(calls, "Task", null)), envelope([], "Idle", answer)].join("\n") + "\n");
  return file;
}

describe("ask --replay with the canvas tools", () => {
  it("creates a canvas and then edits it; each result opens in the canvas view without overlaps, and undo takes the edit back", () => {
    const vault = mkdtempSync(join(tmpdir(), "canvas-vault-"));
    cpSync(join(root, "examples/vault"), vault, { recursive: true });
    const create = replay(
      [[{ name: "canvas:create", args: { path: "Maps/Alpha.canvas", ops: [
        { op: "add_file", id: "alpha", file: "Projects/Project Alpha.md" },
        { op: "add_file", id: "priya", file: "People/Priya Shah.md" },
        { op: "connect", from: "alpha", to: "priya", label: "owner" },
      ] } }]],
      "I made Maps/Alpha.canvas.",
    );
    const made = cli("ask", "--vault", vault, "--allow-writes", "--replay", create, "Make a canvas Maps/Alpha.canvas of Project Alpha and Priya Shah");
    expect(made.status, made.stdout + made.stderr).toBe(0);
    expect(made.stdout).toContain("canvas:create");
    const first = FakeCanvasView.open(readFileSync(join(vault, "Maps/Alpha.canvas"), "utf8"));
    expect(first.nodes.map((n) => n.shows)).toEqual(["Projects/Project Alpha.md", "People/Priya Shah.md"]);
    expect(first.overlaps()).toEqual([]);

    const edit = replay(
      [
        [{ name: "canvas:read", args: { path: "Maps/Alpha.canvas" } }],
        [{ name: "canvas:edit", args: { path: "Maps/Alpha.canvas", ops: [
          { op: "add_text", id: "todo", text: "Call Priya about the beta", near: "priya", color: "2" },
          { op: "add_group", label: "Alpha", members: ["alpha", "priya", "todo"] },
          { op: "connect", from: "todo", to: "priya" },
        ] } }],
      ],
      "Added the card.",
    );
    const before = readFileSync(join(vault, "Maps/Alpha.canvas"), "utf8");
    const edited = cli("ask", "--vault", vault, "--allow-writes", "--replay", edit, "Add a card 'Call Priya about the beta' to the canvas Maps/Alpha.canvas and connect it to Priya");
    expect(edited.status, edited.stdout + edited.stderr).toBe(0);
    expect(edited.stdout).toContain("File card [priya]: [[People/Priya Shah]] — Priya Shah");
    const second = FakeCanvasView.open(readFileSync(join(vault, "Maps/Alpha.canvas"), "utf8"));
    expect(second.nodes).toHaveLength(4);
    expect(second.edges).toHaveLength(2);
    expect(second.overlaps()).toEqual([]);

    const undone = cli("undo", "--vault", vault, "--last");
    expect(undone.status, undone.stdout + undone.stderr).toBe(0);
    expect(readFileSync(join(vault, "Maps/Alpha.canvas"), "utf8")).toBe(before);
    expect(cli("undo", "--vault", vault, "--last").status).toBe(0);
    expect(existsSync(join(vault, "Maps/Alpha.canvas"))).toBe(false);
  }, 240_000);
});
