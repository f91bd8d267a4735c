// e2e scenes for staged memories: memory:save stages a fact without a confirmation and the pane shows "N memories
// staged"; the review lists them (a contradiction beside the kept memory), edit, keep (a journaled note, Undo), drop;
// a new conversation opens the review of the one left, Keep all. Screens memory-staged and memory-review in each
// theme, and on a phone (390×844, the phone's Platform and classes, the same scripted engine): memory-*-mobile-<theme>.

const STANDUP_KEPT = "Memory/2026-01-10 Standup time.md";
const PHONE = { width: 390, height: 844 };

/** Opens the pane when a filtered run starts without it. */
async function ensureChat(page, WAIT) {
  if ((await page.locator(".vault-agent-input").count()) > 0) return;
  await page.locator('.side-dock-ribbon-action[aria-label="Open Vault Agent chat"]').click();
  await page.locator(".vault-agent-input").waitFor({ timeout: WAIT });
}

/** Two turns that each stage a fact; the first contradicts a memory kept earlier. */
async function stageTwo({ page, input, waitTurnEnd, call, say, WAIT }) {
  if ((await page.evaluate((p) => window.harness.read(p), STANDUP_KEPT)) === null) {
    await page.evaluate((p) => window.harness.createNote(p, "---\ncreated: 2026-01-10 09:00\ntags:\n  - memory\n---\nThe team standup is at 9:30.\n"), STANDUP_KEPT);
  }
  await page.evaluate(
    (replies) => window.harness.script(replies, { chunkDelayMs: 2 }),
    [call("memory:save", { content: "The team standup is at 10:00.", title: "Standup time" }), say("I staged that; it is saved once you keep it.", "Staged.")],
  );
  await input.fill("Remember that the team standup is at 10:00 now");
  await input.press("Enter");
  await waitTurnEnd();
  await page.evaluate(
    (replies) => window.harness.script(replies, { chunkDelayMs: 2 }),
    [call("memory:save", { content: "Invoices for Cobalt go out as PDF files." }), say("Staged as well.", "Staged.")],
  );
  await input.fill("Remember that Cobalt invoices go out as PDF files");
  await input.press("Enter");
  await waitTurnEnd();
  await page.locator(".vault-agent-memory-count", { hasText: "2 memories staged" }).waitFor({ timeout: WAIT });
}

/** Memory notes in the vault besides the one kept earlier. */
const newMemories = (page) => page.evaluate((kept) => window.harness.files("Memory/").map((f) => f.path).filter((p) => p !== kept), STANDUP_KEPT);

/** Runs the memory scenes on a booted desktop page. */
export async function memoryScenes({ page, theme, check, assert, shot, input, waitTurnEnd, newConversation, call, say, WAIT }) {
  await check(`[${theme}] memory:save stages facts without asking and the pane counts them; no note is written`, async () => {
    await page.evaluate(() => window.harness.closeSettings());
    await ensureChat(page, WAIT);
    await newConversation();
    await stageTwo({ page, input, waitTurnEnd, call, say, WAIT });
    assert((await page.locator(".vault-agent-confirm").count()) === 0, "staging must not ask for a confirmation");
    const cards = await page.locator(".vault-agent-tool .vault-agent-card-result").allTextContents();
    assert(cards.some((c) => c.includes("Staged to remember")), `the tool card should say the fact was staged, got ${JSON.stringify(cards)}`);
    assert((await newMemories(page)).length === 0, "nothing may reach the vault before review");
    await shot("memory-staged");
  });

  await check(`[${theme}] the review shows a contradiction beside the kept memory; edit, keep (undoable) and drop`, async () => {
    await page.locator(".vault-agent-memory-bar button", { hasText: "Review" }).click();
    await page.locator('.vault-agent-memory-item[data-id="m2"]').waitFor({ timeout: WAIT });
    const contradiction = page.locator('.vault-agent-memory-item.is-contradiction[data-id="m1"]');
    const sides = await contradiction.locator(".vault-agent-memory-side").allTextContents();
    assert(sides.length === 2 && sides[0].includes("10:00") && sides[1].includes("9:30") && sides[1].includes(STANDUP_KEPT), `the two memories should stand side by side, got ${JSON.stringify(sides)}`);
    const buttons = await page.locator('.vault-agent-memory-item[data-id="m2"] button').allTextContents();
    assert(JSON.stringify(buttons) === JSON.stringify(["Keep", "Edit", "Drop"]), `buttons were ${JSON.stringify(buttons)}`);
    assert((await page.locator(".vault-agent-memory-footer button", { hasText: "Keep all" }).count()) === 1, "Keep all is offered");
    await shot("memory-review");

    const item = page.locator('.vault-agent-memory-item[data-id="m2"]');
    await item.locator("button", { hasText: "Edit" }).click();
    await page.locator(".vault-agent-memory-edit").fill("Invoices for Cobalt go out as PDF files, one per month.");
    await page.locator(".vault-agent-memory-item button", { hasText: "Save" }).click();
    await page.locator(".vault-agent-memory-item", { hasText: "one per month" }).waitFor({ timeout: WAIT });
    await page.locator('.vault-agent-memory-item[data-id="m2"] button', { hasText: "Keep" }).click();
    await page.locator(".vault-agent-memory-kept", { hasText: "Kept 1 memory in Memory." }).waitFor({ timeout: WAIT });
    const kept = await newMemories(page);
    assert(kept.length === 1, `one note should be kept, got ${JSON.stringify(kept)}`);
    const text = await page.evaluate((p) => window.harness.read(p), kept[0]);
    assert(text.includes("one per month") && text.includes("- memory"), `the kept note holds the edited fact, got ${text}`);
    await page.locator(".vault-agent-memory-kept button", { hasText: "Undo" }).click();
    await page.waitForFunction((p) => window.harness.read(p) === null, kept[0], { timeout: WAIT });

    // The last fact dropped: the review has nothing left to show and steps aside.
    await page.locator('.vault-agent-memory-item[data-id="m1"] button', { hasText: "Drop" }).click();
    await page.locator(".vault-agent-memory.is-hidden").waitFor({ state: "attached", timeout: WAIT });
    assert((await page.evaluate((p) => window.harness.read(p), STANDUP_KEPT)).includes("9:30"), "the older memory is never replaced");
    assert((await newMemories(page)).length === 0, "a dropped fact reaches no note");
  });

  await check(`[${theme}] a new conversation opens the review of the memories staged in the one left; Keep all keeps both as notes`, async () => {
    await newConversation();
    await stageTwo({ page, input, waitTurnEnd, call, say, WAIT });
    await newConversation();
    await page.locator(".vault-agent-memory-count", { hasText: "2 memories staged from your last conversation" }).waitFor({ timeout: WAIT });
    assert((await page.locator(".vault-agent-memory-item").count()) === 2, "the review lists the left conversation's facts");
    await page.locator(".vault-agent-memory-footer button", { hasText: "Keep all" }).click();
    await page.locator(".vault-agent-memory-kept", { hasText: "Kept 2 memories in Memory." }).waitFor({ timeout: WAIT });
    assert((await newMemories(page)).length === 2, "both facts are kept as notes");
    assert((await page.evaluate((p) => window.harness.read(p), STANDUP_KEPT)).includes("9:30"), "the contradicted memory stays as it was");
    await page.locator(".vault-agent-memory-kept button", { hasText: "Undo" }).click();
    await page.waitForFunction((kept) => window.harness.files("Memory/").every((f) => f.path === kept), STANDUP_KEPT, { timeout: WAIT });
  });
}

/** The same two screens on a phone: the chat as a main tab, a contradiction's two sides stacked. */
export async function memoryPhoneScenes({ context, html, notes, screensDir, check, assert, join, call, say, WAIT }) {
  for (const theme of ["light", "dark"]) {
    await check(`[phone ${theme}] staged memories and their review fit a phone`, async () => {
      const page = await context.newPage();
      try {
        await page.setViewportSize(PHONE);
        const errors = [];
        page.on("pageerror", (error) => errors.push(error.message));
        await page.goto(html);
        await page.evaluate(async (o) => window.harness.boot(o), { theme, notes });
        const input = page.locator(".vault-agent-input");
        const waitTurnEnd = () => page.waitForFunction(() => document.querySelector("button.vault-agent-send")?.textContent === "Send", null, { timeout: WAIT });
        await ensureChat(page, WAIT);
        assert((await page.evaluate(() => window.harness.chatSide())) === "main", "on a phone the chat opens as a main tab");
        await stageTwo({ page, input, waitTurnEnd, call, say, WAIT });
        await page.screenshot({ path: join(screensDir, `memory-staged-mobile-${theme}.png`) });
        await page.locator(".vault-agent-memory-bar button", { hasText: "Review" }).click();
        await page.locator('.vault-agent-memory-item[data-id="m2"]').waitFor({ timeout: WAIT });
        const columns = await page.locator(".vault-agent-memory-compare").evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
        assert(columns === 1, `a contradiction's sides stack on a phone, got ${columns} columns`);
        const wide = await page.evaluate((w) => [...document.querySelectorAll(".vault-agent-memory *")].filter((el) => el.getBoundingClientRect().right > w + 0.5).map((el) => el.className).slice(0, 5), PHONE.width);
        assert(wide.length === 0, `nothing of the review may reach past the phone's edge, got ${JSON.stringify(wide)}`);
        await page.screenshot({ path: join(screensDir, `memory-review-mobile-${theme}.png`) });
        assert(errors.length === 0, `page errors: ${errors.join(" | ")}`);
      } finally {
        await page.close();
      }
    });
  }
}
