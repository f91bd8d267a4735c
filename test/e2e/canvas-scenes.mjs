// e2e scene for the canvas tools: the model calls canvas:create, the confirmation previews the canvas as text (cards,
// group, connections), approval writes Maps/Alpha.canvas, and the file is valid JSON Canvas whose cards do not overlap.
// Screen: chat-canvas-created in each theme. Called from run.mjs with its helpers.

const CANVAS = "Maps/Alpha.canvas";

/** Opens the pane when a filtered run starts without it. */
async function ensureChat(page, WAIT) {
  if ((await page.locator(".vault-agent-input").count()) > 0) return;
  await page.locator('.side-dock-ribbon-action[aria-label="Open Vault Agent chat"]').click();
  await page.locator(".vault-agent-input").waitFor({ timeout: WAIT });
}

/** Problems that would keep Obsidian's canvas view from drawing the file cleanly, checked apart from the plugin's code. */
function canvasProblems(text) {
  const c = JSON.parse(text);
  const ids = new Set(c.nodes.map((n) => n.id));
  const out = [];
  if (ids.size !== c.nodes.length) out.push("repeated node ids");
  for (const e of c.edges) if (!ids.has(e.fromNode) || !ids.has(e.toNode)) out.push(`edge ${e.id} joins a missing node`);
  const holds = (g, n) => g.type === "group" && n.x >= g.x && n.y >= g.y && n.x + n.width <= g.x + g.width && n.y + n.height <= g.y + g.height;
  c.nodes.forEach((a, i) =>
    c.nodes.slice(i + 1).forEach((b) => {
      const share = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      if (share && !holds(a, b) && !holds(b, a)) out.push(`${a.id} overlaps ${b.id}`);
    }),
  );
  return out;
}

/** Runs the canvas scene on a booted desktop page. */
export async function canvasScenes({ page, theme, check, assert, shot, input, waitTurnEnd, newConversation, call, say, WAIT }) {
  await check(`[${theme}] canvas:create previews the canvas as text, and after approval the canvas is valid without overlaps`, async () => {
    await page.evaluate(() => window.harness.closeSettings());
    await ensureChat(page, WAIT);
    await newConversation();
    const ops = [
      { op: "add_file", id: "alpha", file: "Projects/Project Alpha.md" },
      { op: "add_file", id: "priya", file: "People/Priya Shah.md" },
      { op: "add_text", id: "next", text: "Beta rollout: offline sync first", color: "2" },
      { op: "add_group", label: "Project Alpha", members: ["alpha", "priya", "next"], color: "5" },
      { op: "connect", from: "priya", to: "alpha", label: "owns" },
      { op: "connect", from: "next", to: "alpha" },
    ];
    await page.evaluate(
      (replies) => window.harness.script(replies, { chunkDelayMs: 3 }),
      [call("canvas:create", { path: CANVAS, ops }, null, "A canvas of the project, its owner and the next step."), say("I made [[Maps/Alpha.canvas]]: Project Alpha and Priya Shah in one group, with the next step and arrows between them.", "Created.")],
    );
    await input.fill("Make a canvas Maps/Alpha.canvas of Project Alpha, its owner and the next step");
    await input.press("Enter");
    await page.locator(".vault-agent-confirm").waitFor({ timeout: WAIT });
    const preview = await page.locator(".vault-agent-preview").textContent();
    assert(preview.includes("Group [") && preview.includes("Project Alpha") && preview.includes("→"), `the preview should read as a canvas, got ${preview}`);
    assert((await page.evaluate((p) => window.harness.read(p), CANVAS)) === null, "nothing is written before approval");
    await page.locator(".vault-agent-confirm-buttons button", { hasText: "Approve" }).click();
    await page.locator('.vault-agent-tool[data-status="ok"]').waitFor({ timeout: WAIT });
    await waitTurnEnd();
    const text = await page.evaluate((p) => window.harness.read(p), CANVAS);
    assert(text !== null, "the canvas was written");
    const problems = canvasProblems(text);
    assert(problems.length === 0, `the canvas should open cleanly, got ${problems.join("; ")}`);
    const result = await page.locator(".vault-agent-tool .vault-agent-card-result").last().textContent();
    assert(result.includes("Created [[Maps/Alpha.canvas]]"), `the card should say it was created, got ${result}`);
    await shot("chat-canvas-created");
  });
}
