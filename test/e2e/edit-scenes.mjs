// Edit in place in headless Chromium: a real CodeMirror 6 editor with the plugin's editor extension (harness/edit-harness.ts),
// driven by mouse, keyboard and touch; screens edit-prompt, edit-proposed, edit-partly-accepted (light and dark) and
// mobile-edit-proposed. Run alone with `node test/e2e/edit-scenes.mjs`, or from run.mjs.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import esbuild from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));

export const EDIT_NOTE = [
  "# Garden",
  "",
  "The tomatos are planted in bed one. They need water every day! Is the soil too dry?",
  "",
  "## Tasks",
  "- buy compost 🌱",
  "- weed the beans",
  "",
].join("\n");

const EDITS = JSON.stringify({
  edits: [
    { find: "The tomatos are planted in bed one.", replace: "The tomatoes are planted in bed one." },
    { find: "Is the soil too dry?", replace: "Is the soil dry?" },
    { find: "- buy compost 🌱", replace: "- buy compost and mulch 🌱" },
  ],
});
const ONLY_SECOND = EDIT_NOTE.replace("soil too dry?", "soil dry?");

/** Builds the harness page into outDir; returns its URL. */
export async function buildEditHarness(outDir) {
  mkdirSync(outDir, { recursive: true });
  await esbuild.build({
    entryPoints: [join(root, "test/e2e/harness/edit-harness.ts")],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    outfile: join(outDir, "edit-harness.js"),
    logLevel: "warning",
  });
  writeFileSync(join(outDir, "obsidian-theme.css"), readFileSync(join(root, "test/e2e/harness/obsidian-theme.css")));
  writeFileSync(join(outDir, "styles.css"), readFileSync(join(root, "styles.css")));
  writeFileSync(
    join(outDir, "edit.html"),
    `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Edit in place harness</title><link rel="stylesheet" href="obsidian-theme.css"><link rel="stylesheet" href="styles.css">
<style>html,body{height:100%;margin:0}.workspace-leaf-content{display:flex;flex-direction:column;height:100%;background:var(--background-primary)}
.view-header{padding:8px 16px;border-bottom:1px solid var(--background-modifier-border);color:var(--text-muted);font-size:13px}
.view-content{flex:1;min-height:0}.markdown-source-view{height:100%}.cm-editor{height:100%;color:var(--text-normal)}</style></head>
<body><script src="edit-harness.js"></script></body></html>`,
  );
  return pathToFileURL(join(outDir, "edit.html")).href;
}

/** The scenes for one theme on a fresh page. */
async function themeScenes({ context, url, theme, check, assert, screensDir, WAIT }) {
  const page = await context.newPage();
  await page.setViewportSize({ width: 1000, height: 560 });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url);
  const h = (fn, arg) => page.evaluate(fn, arg);
  const shot = (name) => page.screenshot({ path: join(screensDir, `${name}-${theme}.png`) });
  const boot = (note = EDIT_NOTE) => h(({ theme, note }) => window.editHarness.boot({ theme, note }), { theme, note });
  const waitPhase = (phase) => page.waitForFunction((p) => window.editHarness.session()?.phase === p, phase, { timeout: WAIT });
  const open = async (replies, o = {}) => {
    await h(({ replies, o }) => window.editHarness.script(replies, o), { replies, o });
    await h(() => window.editHarness.start());
    await page.locator(".vault-agent-edit-input").waitFor({ timeout: WAIT });
  };

  await check(`[${theme}] edit in place: the prompt opens on the section under the cursor, with recent instructions`, async () => {
    await boot();
    const at = EDIT_NOTE.indexOf("water");
    await h((at) => window.editHarness.select(at, at), at);
    await open([EDITS], { chunkDelayMs: 60, chunkChars: 12 });
    const s = await h(() => window.editHarness.session());
    assert(s.phase === "prompt" && EDIT_NOTE.slice(s.from, s.to) === EDIT_NOTE.slice(0, EDIT_NOTE.indexOf("\n\n## Tasks")), `region was ${JSON.stringify(s)}`);
    assert((await page.locator(".vault-agent-edit-recent .vault-agent-edit-button").first().textContent()) === "Make it more formal", "a recent instruction should be offered");
    await page.keyboard.type("Fix the typos");
    await shot("edit-prompt");
  });

  await check(`[${theme}] edit in place: the proposal streams in as word-level marks; nothing in the note changes`, async () => {
    // The whole note this time: select it.
    await h(() => window.editHarness.select(0, window.editHarness.doc().length));
    await h(() => window.editHarness.start());
    await page.locator(".vault-agent-edit-input").fill("Fix the typos");
    await page.locator(".vault-agent-edit-input").press("Enter");
    await waitPhase("proposing");
    await page.waitForFunction(() => (window.editHarness.session()?.changes.length ?? 0) >= 1 && window.editHarness.session()?.phase === "proposing", null, { timeout: WAIT });
    const streamed = await h(() => window.editHarness.session().changes.length);
    await waitPhase("review");
    const s = await h(() => window.editHarness.session());
    assert(streamed >= 1 && streamed < 3, `changes while streaming: ${streamed}`);
    assert(JSON.stringify(s.changes.map((c) => [c.deleted, c.insert])) === JSON.stringify([["tomatos", "tomatoes"], ["too ", ""], ["", " and mulch"]]), `changes: ${JSON.stringify(s.changes)}`);
    assert((await h(() => window.editHarness.doc())) === EDIT_NOTE && (await h(() => window.editHarness.saved())) === EDIT_NOTE, "the note must not change before an accept");
    assert((await page.locator(".vault-agent-edit-deleted").count()) === 2, "two deletions struck through");
    assert((await page.locator("ins.vault-agent-edit-inserted").count()) === 2, "two insertions marked");
    assert((await page.locator(".vault-agent-edit-deleted").first().evaluate((e) => getComputedStyle(e).textDecorationLine)) === "line-through", "deletions are struck through");
    await shot("edit-proposed");
  });

  await check(`[${theme}] edit in place: Accept on one change (mouse) writes exactly that change; Reject all leaves the rest`, async () => {
    await page.locator('button[aria-label="Accept change 2"]').click();
    await page.waitForFunction((t) => window.editHarness.doc() === t, ONLY_SECOND, { timeout: WAIT });
    await page.waitForFunction((t) => window.editHarness.saved() === t, ONLY_SECOND, { timeout: WAIT });
    assert((await page.locator(".vault-agent-edit-status").textContent()) === "2 changes to review (1 accepted)", "the review bar counts what is left");
    await shot("edit-partly-accepted");
    await page.locator("button", { hasText: "Reject all" }).click();
    assert((await h(() => window.editHarness.session())) === null, "Reject all ends the review");
    assert((await h(() => window.editHarness.doc())) === ONLY_SECOND, "rejecting changes nothing");
  });

  await check(`[${theme}] edit in place: "Undo the agent's last change" restores the note byte for byte`, async () => {
    assert((await h(() => window.editHarness.journaledTurns())) >= 1, "the accept is journaled");
    assert(await h(() => window.editHarness.undoLast()), "there was a turn to undo");
    assert((await h(() => window.editHarness.doc())) === EDIT_NOTE && (await h(() => window.editHarness.saved())) === EDIT_NOTE, "the note is back byte for byte");
  });

  await check(`[${theme}] edit in place: keyboard only — next, accept, reject, accept all; the editor's undo takes the accepts back`, async () => {
    await boot();
    await h(() => window.editHarness.select(0, window.editHarness.doc().length));
    await open([EDITS]);
    await page.keyboard.type("Fix the typos");
    await page.keyboard.press("Enter");
    await waitPhase("review");
    await page.keyboard.press("Alt+BracketRight");
    assert((await h(() => window.editHarness.session().current)) === 2, "Alt+] moves to change 2");
    await page.keyboard.press("Alt+KeyY");
    await page.waitForFunction((t) => window.editHarness.doc() === t, ONLY_SECOND, { timeout: WAIT });
    assert((await h(() => window.editHarness.session().current)) === 3, "the next change is current after an accept");
    await page.keyboard.press("Alt+KeyN");
    assert(JSON.stringify(await h(() => window.editHarness.session().changes.map((c) => c.id))) === "[1]", "Alt+N rejects the current change");
    await page.keyboard.press("Control+Enter");
    const both = ONLY_SECOND.replace("tomatos", "tomatoes");
    await page.waitForFunction((t) => window.editHarness.doc() === t, both, { timeout: WAIT });
    assert((await h(() => window.editHarness.session())) === null, "nothing left to review");
    await h(() => window.editHarness.editorUndo());
    await h(() => window.editHarness.editorUndo());
    assert((await h(() => window.editHarness.doc())) === EDIT_NOTE, "the editor's undo restores the bytes");
  });

  await check(`[${theme}] edit in place: typing under a proposal drops the touched change with one sentence and keeps what was typed; Escape rejects all`, async () => {
    await boot();
    await h(() => window.editHarness.select(0, window.editHarness.doc().length));
    await open([EDITS, EDITS]);
    await page.keyboard.type("Fix the typos");
    await page.keyboard.press("Enter");
    await waitPhase("review");
    await h((at) => window.editHarness.type(at, "very "), EDIT_NOTE.indexOf("too dry"));
    const s = await h(() => window.editHarness.session());
    assert(JSON.stringify(s.changes.map((c) => c.id)) === "[1,3]", `left: ${JSON.stringify(s.changes)}`);
    assert((await page.locator(".vault-agent-edit-notice").textContent()) === "1 proposed change no longer applies because the text under it changed, so it was dropped; 2 are still proposed.", "one sentence");
    await page.locator("button", { hasText: "Accept all" }).click();
    const typed = EDIT_NOTE.replace("too dry", "very too dry").replace("tomatos", "tomatoes").replace("compost 🌱", "compost and mulch 🌱");
    await page.waitForFunction((t) => window.editHarness.doc() === t, typed, { timeout: WAIT });
    // Escape rejects a whole proposal: the note stays byte-identical.
    await h(() => window.editHarness.select(0, 0));
    await h(() => window.editHarness.start());
    await page.locator(".vault-agent-edit-input").fill("again");
    await page.locator(".vault-agent-edit-input").press("Enter");
    await page.waitForFunction(() => window.editHarness.session()?.phase !== "proposing", null, { timeout: WAIT });
    await page.keyboard.press("Escape");
    assert((await h(() => window.editHarness.session())) === null && (await h(() => window.editHarness.doc())) === typed, "Escape leaves the note as it was");
  });

  // Figures, not timed assertions (speed lives in measurements, never in pass or fail): the time from the end of
  // generation to the review drawn, and the longest task the page ran while the proposal streamed in (Chromium's
  // long-task entries: 0 means no frame was blocked over 50 ms). The reply arrives as a stream does: 400 characters at
  // a time, each in a task of its own.
  await check(`[${theme}] edit in place: a 5,000-word note's proposal streams in and is reviewed (figures logged)`, async () => {
    const paragraphs = Array.from({ length: 250 }, (_, i) => `Paragraph ${i} tells how the bed number ${i} was dug, watered and mulched in the spring. The tomatos grew well there again this year and nobody complained.`);
    const note = `# Long garden log\n\n${paragraphs.join("\n\n")}\n`;
    const edits = paragraphs.filter((_, i) => i % 10 === 3).map((p) => ({ find: p.slice(p.indexOf("The tomatos")), replace: "The tomatoes grew well there again this year." }));
    await boot(note);
    await h(() => window.editHarness.select(0, window.editHarness.doc().length));
    await open([JSON.stringify({ edits })], { chunkChars: 400, chunkDelayMs: 8 });
    await page.keyboard.type("Fix the typos");
    await page.keyboard.press("Enter");
    await waitPhase("review");
    // Long-task entries are delivered after the task: give the observer a moment.
    await page.waitForTimeout(200);
    const ms = await h(() => window.editHarness.toScreenMs());
    const longest = await h(() => window.editHarness.longestTaskWhileStreaming());
    const words = note.split(/\s+/).length;
    assert(words >= 5000, `the note has ${words} words`);
    assert((await h(() => window.editHarness.session().changes.length)) === edits.length * 2, "each edit is two word changes");
    assert(ms >= 0, "the review was drawn after the end of generation");
    console.log(`    (${words} words, ${edits.length} edits: ${ms.toFixed(1)} ms from the end of generation to the review drawn; longest task while streaming ${longest.toFixed(0)} ms, 0 = none over 50 ms)`);
    await page.keyboard.press("Escape");
  });

  await check(`[${theme}] edit in place: no uncaught errors in the page`, async () => {
    assert(errors.length === 0, errors.join(" | "));
  });
  await page.close();
}

/** The phone: the same widget, touch-sized, tapped. */
async function mobileScene({ browser, url, check, assert, screensDir, WAIT }) {
  const context = await browser.newContext({ viewport: { width: 390, height: 700 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(url);
  const h = (fn, arg) => page.evaluate(fn, arg);
  await check("[mobile] edit in place: the proposal's buttons are touch-sized, and a tap accepts one change", async () => {
    await h((note) => window.editHarness.boot({ theme: "light", note, mobile: true }), EDIT_NOTE);
    await h((replies) => window.editHarness.script(replies), [EDITS]);
    await h(() => window.editHarness.select(0, window.editHarness.doc().length));
    await h(() => window.editHarness.start());
    await page.locator(".vault-agent-edit-input").fill("Fix the typos");
    await page.locator(".vault-agent-edit-input").press("Enter");
    await page.waitForFunction(() => window.editHarness.session()?.phase === "review", null, { timeout: WAIT });
    const box = await page.locator('button[aria-label="Accept change 2"]').boundingBox();
    assert(box && box.height >= 32 && box.width >= 36, `the accept button is ${JSON.stringify(box)}`);
    await page.screenshot({ path: join(screensDir, "mobile-edit-proposed.png") });
    await page.locator('button[aria-label="Accept change 2"]').tap();
    await page.waitForFunction((t) => window.editHarness.doc() === t, ONLY_SECOND, { timeout: WAIT });
  });
  await context.close();
}

/** Every edit-in-place scene, in a Chromium of their own (playwright-core's `chromium`, the browser's path). */
export async function editScenes({ chromium, executablePath, outDir, screensDir, check, assert, log, WAIT = 10_000 }) {
  const url = await buildEditHarness(outDir);
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext();
    for (const theme of ["light", "dark"]) {
      log(`edit in place, ${theme} theme`);
      await themeScenes({ context, url, theme, check, assert, screensDir, WAIT });
    }
    await mobileScene({ browser, url, check, assert, screensDir, WAIT });
  } finally {
    await browser.close();
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const { chromium } = await import("playwright-core");
  const outDir = join(root, "test-results", "e2e");
  const screensDir = join(root, "test-results", "screens");
  mkdirSync(screensDir, { recursive: true });
  const results = [];
  const log = (line) => process.stdout.write(`${line}\n`);
  const check = async (name, fn) => {
    const started = Date.now();
    try {
      await fn();
      results.push(true);
      log(`  ✓ ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      results.push(false);
      log(`  ✗ ${name}\n      ${String(error?.stack ?? error).split("\n").slice(0, 4).join("\n      ")}`);
    }
  };
  const assert = (condition, message) => {
    if (!condition) throw new Error(message);
  };
  try {
    await editScenes({ chromium, executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", outDir, screensDir, check, assert, log });
  } catch (error) {
    results.push(false);
    log(`  ✗ could not run the browser: ${error?.message ?? error}`);
  }
  const failed = results.filter((r) => !r).length;
  log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 && results.length > 0 ? 0 : 1);
}
