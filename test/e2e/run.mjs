// End-to-end test of the chat pane: builds main.js, bundles the browser harness (fake `obsidian`, scripted engine,
// example vault), drives it in headless Debian Chromium with playwright-core, and saves screenshots in a light and a
// dark theme under test-results/screens/. Prints "N passed, M failed" last and exits non-zero on any failure.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import esbuild from "esbuild";
import { chromium } from "playwright-core";
import { runtimeScenes } from "./runtime-scenes.mjs";
import { mcpScenes } from "./mcp-scenes.mjs";
import { mobileScenes } from "./mobile-scenes.mjs";
import { localLlamaScenes } from "./local-llama-scenes.mjs";
import { editScenes } from "./edit-scenes.mjs";
import { memoryPhoneScenes, memoryScenes } from "./memory-scenes.mjs";
import { canvasScenes } from "./canvas-scenes.mjs";
import { pdfScenes } from "./pdf-scenes.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const outDir = join(root, "test-results", "e2e");
const screensDir = join(root, "test-results", "screens");
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const WAIT = 10_000;
/** `--mobile`: only the phone scenes (mobile-scenes.mjs), which need a built llama-server. */
const MOBILE_ONLY = process.argv.includes("--mobile");
/** `--only WORD`: only the scenes whose name holds WORD (e.g. `--only memor`); the phone scenes with a server are left out. */
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined;

function log(line) {
  process.stdout.write(`${line}\n`);
}

// 1. Build main.js exactly as a release does, and the harness bundle for the browser.
log("building main.js …");
execFileSync(process.execPath, ["esbuild.config.mjs", "production"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
mkdirSync(outDir, { recursive: true });
mkdirSync(screensDir, { recursive: true });
await esbuild.build({
  entryPoints: [join(root, "test/e2e/harness/harness.ts")],
  bundle: true,
  platform: "browser",
  format: "iife",
  target: "es2022",
  outfile: join(outDir, "harness.js"),
  logLevel: "warning",
});

// 2. The example vault's notes, in memory in the page.
function readVault(dir, prefix = "") {
  const notes = {};
  for (const name of readdirSync(dir)) {
    if (name.startsWith(".")) continue;
    const full = join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) Object.assign(notes, readVault(full, rel));
    else if (name.endsWith(".md")) notes[rel] = readFileSync(full, "utf8");
  }
  return notes;
}
const notes = readVault(join(root, "examples", "vault"));

writeFileSync(
  join(outDir, "index.html"),
  `<!doctype html><html><head><meta charset="utf-8"><title>Vault Agent harness</title>
<link rel="stylesheet" href="obsidian-theme.css"><link rel="stylesheet" href="styles.css"></head>
<body><script src="harness.js"></script><script src="main.js"></script></body></html>`,
);
// The phone with the desktop harness's scripted engine (the memory scenes): Platform says phone, Node shims stay.
writeFileSync(
  join(outDir, "phone.html"),
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>Vault Agent phone harness</title><link rel="stylesheet" href="obsidian-theme.css"><link rel="stylesheet" href="styles.css"></head>
<body><script>window.__harnessMode = "phone";</script><script src="harness.js"></script><script src="main.js"></script></body></html>`,
);
// The phone's page: the harness reads __harnessMode before main.js loads (no Node, Platform says mobile).
writeFileSync(
  join(outDir, "mobile.html"),
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>Vault Agent mobile harness</title><link rel="stylesheet" href="obsidian-theme.css"><link rel="stylesheet" href="styles.css"></head>
<body><script>window.__harnessMode = "mobile";</script><script src="harness.js"></script><script src="main.js"></script></body></html>`,
);
writeFileSync(join(outDir, "obsidian-theme.css"), readFileSync(join(root, "test/e2e/harness/obsidian-theme.css")));
writeFileSync(join(outDir, "styles.css"), readFileSync(join(root, "styles.css")));
writeFileSync(join(outDir, "main.js"), readFileSync(join(root, "main.js")));

// 3. Envelopes the scripted engine replies with (compact JSON, the form the grammar accepts).
const say = (message, thought = "The user asked a question; I answer from the note.") =>
  JSON.stringify({ thought, status: "Idle", message_to_user: message, tool_calls: [] });
const call = (name, args, message = null, thought = `I need ${name} for this.`) =>
  JSON.stringify({ thought, status: "Task", message_to_user: message, tool_calls: [{ name, args }] });

const SOUP_ANSWER =
  "For the **red lentil soup** you need:\n\n- 250 g red lentils\n- 1 onion, 1 carrot, 2 cloves garlic\n- 1 can chopped tomatoes, 1.2 l vegetable stock\n- cumin, turmeric and half a lemon\n\nThe full recipe is in [[Recipes/Red Lentil Soup]].";

// 4. The scenarios, run once per theme on a fresh page.
const results = [];
async function check(name, fn) {
  if (ONLY && !name.includes(ONLY)) return;
  const started = Date.now();
  try {
    await fn();
    results.push({ name, ok: true });
    log(`  ✓ ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    results.push({ name, ok: false, error });
    log(`  ✗ ${name}\n      ${String(error?.stack ?? error).split("\n").slice(0, 4).join("\n      ")}`);
  }
}

function assert(condition, message) {
  if (!condition) throw new Error(message);
}

async function runTheme(context, theme) {
  log(`${theme} theme`);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (msg) => {
    if (msg.type() === "error") pageErrors.push(msg.text());
  });
  await page.goto(pathToFileURL(join(outDir, "index.html")).href);
  await page.evaluate(async ({ theme, notes }) => window.harness.boot({ theme, notes }), { theme, notes });
  const shot = (name) => page.screenshot({ path: join(screensDir, `${name}-${theme}.png`) });
  const input = page.locator(".vault-agent-input");
  const sendButton = page.locator("button.vault-agent-send");
  const newConversation = () => page.evaluate(() => window.harness.runCommand("new-conversation"));
  const waitTurnEnd = () => page.waitForFunction(() => document.querySelector("button.vault-agent-send")?.textContent === "Send", null, { timeout: WAIT });

  await check(`[${theme}] the ribbon icon opens the chat pane with its empty state`, async () => {
    await page.locator('.side-dock-ribbon-action[aria-label="Open Vault Agent chat"]').click();
    await page.locator(".vault-agent-empty").waitFor({ state: "visible", timeout: WAIT });
    const title = await page.locator(".vault-agent-empty-title").textContent();
    assert(title === "Ask about your notes", `empty state title was ${title}`);
    const status = await page.locator(".vault-agent-status").textContent();
    assert(status.includes("qwen2.5-0.5b-instruct-q4_k_m"), `status line should name the selected model, got "${status}"`);
    await shot("chat-empty");
  });

  await check(`[${theme}] a message sent with Enter streams its answer, rendered as Markdown with links`, async () => {
    await page.evaluate((reply) => window.harness.script([reply], { chunkDelayMs: 30, chunkChars: 4 }), say(SOUP_ANSWER));
    await input.fill("What do I need for the red lentil soup?");
    await input.press("Enter");
    await page.locator(".vault-agent-user .vault-agent-user-text").first().waitFor({ timeout: WAIT });
    await page.waitForFunction(() => (document.querySelector(".vault-agent-assistant.is-streaming .vault-agent-answer")?.textContent ?? "").length > 40, null, {
      timeout: WAIT,
    });
    const partial = await page.locator(".vault-agent-assistant .vault-agent-answer").textContent();
    const stopVisible = await sendButton.textContent();
    await shot("chat-streaming");
    assert(stopVisible === "Stop", `while streaming the button should read Stop, got ${stopVisible}`);
    await waitTurnEnd();
    const final = await page.locator(".vault-agent-assistant .vault-agent-answer").textContent();
    assert(partial.length < final.length, `the answer should grow while streaming (${partial.length} then ${final.length} characters)`);
    assert((await page.locator(".vault-agent-assistant .vault-agent-answer strong").count()) === 1, "bold text should render as <strong>");
    const link = page.locator(".vault-agent-assistant a.internal-link");
    assert((await link.getAttribute("data-href")) === "Recipes/Red Lentil Soup", "the [[link]] should render as an internal link");
    assert((await input.inputValue()) === "", "the input should be cleared after sending");
    const status = await page.locator(".vault-agent-status").textContent();
    assert(/Qwen2\.5 0\.5B Instruct · [\d.]+ tok\/s · ready · GBNF$/.test(status), `status line should show model, speed and the constraint, got "${status}"`);
    assert((await page.locator(".vault-agent-thought summary").count()) === 1, "the thought should be available, collapsed");
    assert(!(await page.locator(".vault-agent-thought").getAttribute("open")), "the thought should start collapsed");
    await link.click();
    await page.waitForFunction(() => window.harness.activePath() === "Recipes/Red Lentil Soup.md", null, { timeout: WAIT });
  });

  await check(`[${theme}] Shift+Enter adds a line instead of sending`, async () => {
    const before = await page.locator(".vault-agent-user").count();
    await input.fill("first line");
    await input.press("Shift+Enter");
    await input.type("second line");
    assert((await input.inputValue()) === "first line\nsecond line", `input was ${JSON.stringify(await input.inputValue())}`);
    assert((await page.locator(".vault-agent-user").count()) === before, "Shift+Enter must not send");
    await input.fill("");
  });

  await check(`[${theme}] a read tool call shows as a card with its arguments, status and result`, async () => {
    await newConversation();
    await page.evaluate(
      (replies) => window.harness.script(replies, { chunkDelayMs: 5 }),
      [call("vault:read", { path: "Recipes/Red Lentil Soup.md" }), say(SOUP_ANSWER, "I read the recipe; now I list the ingredients.")],
    );
    await input.fill("Read my red lentil soup recipe and list the ingredients");
    await input.press("Enter");
    await page.locator('.vault-agent-tool[data-status="ok"]').waitFor({ timeout: WAIT });
    await waitTurnEnd();
    const card = page.locator(".vault-agent-tool").first();
    assert((await card.locator(".vault-agent-tool-name").textContent()) === "vault:read", "card should name the tool");
    assert((await card.locator(".vault-agent-badge").textContent()) === "Done", "card should show Done");
    assert((await card.locator(".vault-agent-card-args").textContent()).includes("Recipes/Red Lentil Soup.md"), "card should show the path argument");
    assert((await card.locator(".vault-agent-card-result").textContent()).toLowerCase().includes("lentil"), "card should summarize the result");
    await shot("chat-tool-call");
  });

  await check(`[${theme}] a write waits for approval with a preview, and Approve writes the note`, async () => {
    await newConversation();
    const content = "# Garden plan\n\n- [ ] Sow tomatoes indoors\n- [ ] Order basil seeds\n- [ ] Build the raised bed\n";
    await page.evaluate(
      (replies) => window.harness.script(replies, { chunkDelayMs: 5 }),
      [call("vault:write", { path: "Garden plan.md", content }, "I will create the note."), say("Created [[Garden plan]] with three tasks.")],
    );
    await input.fill("Create a note called Garden plan with my three garden tasks");
    await input.press("Enter");
    await page.locator(".vault-agent-confirm").waitFor({ timeout: WAIT });
    const preview = await page.locator(".vault-agent-preview").textContent();
    assert(preview.includes("Sow tomatoes indoors"), `preview should show the new content, got ${preview}`);
    assert((await page.evaluate(() => window.harness.read("Garden plan.md"))) === null, "nothing may be written before approval");
    const buttons = await page.locator(".vault-agent-confirm-buttons button").allTextContents();
    assert(JSON.stringify(buttons) === JSON.stringify(["Approve", "Deny", "Allow for this conversation"]), `buttons were ${buttons}`);
    await shot("chat-confirm-write");
    await page.locator(".vault-agent-confirm-buttons button", { hasText: "Approve" }).click();
    await page.locator('.vault-agent-tool[data-status="ok"]').waitFor({ timeout: WAIT });
    await waitTurnEnd();
    const written = await page.evaluate(() => window.harness.read("Garden plan.md"));
    assert(written === content, `the note should hold the approved content, got ${JSON.stringify(written)}`);
  });

  await check(`[${theme}] Undo this turn takes the approved write back, and the command is offered only while there is one`, async () => {
    const undo = page.locator(".vault-agent-undo button", { hasText: "Undo this turn" });
    await undo.waitFor({ timeout: WAIT });
    assert(await page.evaluate(() => window.harness.commandAvailable("undo-last-change")), "the undo command should be offered after a write");
    await shot("chat-undo-turn");
    await undo.click();
    await page.locator(".vault-agent-undo-done").waitFor({ timeout: WAIT });
    assert((await page.evaluate(() => window.harness.read("Garden plan.md"))) === null, "undo should take the created note away");
    assert(!(await page.evaluate(() => window.harness.commandAvailable("undo-last-change"))), "nothing is left to undo");
  });

  await check(`[${theme}] Stop aborts a generation mid-stream`, async () => {
    await newConversation();
    const long = "This is a long answer that keeps going. ".repeat(40);
    await page.evaluate((reply) => window.harness.script([reply], { chunkDelayMs: 25, chunkChars: 3 }), say(long));
    await input.fill("Tell me everything about my projects");
    await input.press("Enter");
    await page.waitForFunction(() => (document.querySelector(".vault-agent-assistant .vault-agent-answer")?.textContent ?? "").length > 20, null, { timeout: WAIT });
    await sendButton.click();
    await page.locator(".vault-agent-notice.mod-stopped").waitFor({ timeout: WAIT });
    await waitTurnEnd();
    const shown = (await page.locator(".vault-agent-assistant .vault-agent-answer").textContent()) ?? "";
    assert(shown.length < long.length / 2, `the answer should stop early, got ${shown.length} of ${long.length} characters`);
    assert((await page.locator(".vault-agent-assistant.is-streaming").count()) === 0, "no answer may keep streaming after Stop");
  });

  await check(`[${theme}] "Ask about this note" appears only with a note open and attaches it`, async () => {
    await newConversation();
    await page.evaluate(() => window.harness.closeNotes());
    assert(!(await page.evaluate(() => window.harness.commandAvailable("ask-about-note"))), "the command must be hidden without an open note");
    await page.evaluate(() => window.harness.openNote("Recipes/Shakshuka.md"));
    assert(await page.evaluate(() => window.harness.commandAvailable("ask-about-note")), "the command must be available with a note open");
    assert(!(await page.evaluate(() => window.harness.commandAvailable("ask-about-selection"))), "ask about selection needs a selection");
    await page.evaluate(() => window.harness.runCommand("ask-about-note"));
    await page.locator(".vault-agent-attachments .vault-agent-chip", { hasText: "Recipes/Shakshuka.md" }).waitFor({ timeout: WAIT });
    await page.evaluate((reply) => window.harness.script([reply], { chunkDelayMs: 2 }), say("It is a recipe for shakshuka."));
    await input.fill("What is this note about?");
    await input.press("Enter");
    await waitTurnEnd();
    const prompt = (await page.evaluate(() => window.harness.requests()))[0].join("\n");
    assert(prompt.includes("Shakshuka"), "the note's text should reach the model with the message");
    assert((await page.locator(".vault-agent-attachments .vault-agent-chip").count()) === 0, "attachments are cleared once sent");
  });

  await check(`[${theme}] "Summarize this note" sends the open note with the request`, async () => {
    await newConversation();
    await page.evaluate(() => window.harness.openNote("Recipes/Banana Bread.md"));
    await page.evaluate((reply) => window.harness.script([reply], { chunkDelayMs: 2 }), say("- Ripe bananas\n- One loaf, 60 minutes"));
    assert(await page.evaluate(() => window.harness.runCommand("summarize-note")), "the command should run with a note open");
    await page.locator(".vault-agent-assistant:not(.is-streaming)").waitFor({ timeout: WAIT });
    await waitTurnEnd();
    const user = await page.locator(".vault-agent-user").last().textContent();
    assert(user.includes("Summarize this note") && user.includes("Recipes/Banana Bread.md"), `user bubble was ${user}`);
    const prompt = (await page.evaluate(() => window.harness.requests()))[0].join("\n");
    assert(prompt.toLowerCase().includes("banana"), "the note's text should reach the model");
    const before = await page.evaluate(() => window.harness.editorText());
    await page.locator('.vault-agent-assistant button[aria-label="Insert at cursor"]').last().click();
    const after = await page.evaluate(() => window.harness.editorText());
    assert(after === "- Ripe bananas\n- One loaf, 60 minutes" + before, "insert at cursor should put the answer at the cursor of the open note");
  });

  await check(`[${theme}] past conversations are listed and reopen with their messages`, async () => {
    await page.locator('.vault-agent-toolbar-button[aria-label="Conversations"]').click();
    await page.locator(".vault-agent-history-row").first().waitFor({ timeout: WAIT });
    const titles = await page.locator(".vault-agent-history-title").allTextContents();
    assert(titles.includes("What do I need for the red lentil soup?"), `history titles were ${JSON.stringify(titles)}`);
    await page.locator(".vault-agent-history-title", { hasText: "What do I need for the red lentil soup?" }).click();
    await page.locator(".vault-agent-user-text", { hasText: "What do I need for the red lentil soup?" }).waitFor({ timeout: WAIT });
    const answer = await page.locator(".vault-agent-assistant .vault-agent-answer").first().textContent();
    assert(answer.includes("250 g red lentils"), `reopened answer was ${answer}`);
    assert((await page.locator(".vault-agent-history.is-hidden").count()) === 1, "the list closes after opening one");
  });

  await check(`[${theme}] Index vault builds the text index, reporting in the status bar`, async () => {
    await page.evaluate(() => window.harness.runCommand("index-vault"));
    await page.waitForFunction(() => window.harness.notices().some((n) => n.startsWith("Indexed ")), null, { timeout: WAIT });
    const notice = (await page.evaluate(() => window.harness.notices())).find((n) => n.startsWith("Indexed "));
    assert(/^Indexed 2\d notes/.test(notice), `notice was ${notice}`);
    assert(notice.includes("full-text only"), `without a vector index the notice should say search is full-text, got ${notice}`);
    assert((await page.evaluate(() => window.harness.read(".obsidian/plugins/vault-agent/index/text-index.json"))) !== null, "the text index should be saved in the plugin's index folder");
    const bar = await page.locator(".vault-agent-status-bar").textContent();
    assert(bar.startsWith("Vault agent:"), `status bar was ${bar}`);
  });

  await check(`[${theme}] a missing model shows an error banner whose action opens the model picker`, async () => {
    await newConversation();
    await page.evaluate(() => window.harness.setSetting({ modelPath: "" }));
    await input.fill("hello");
    await input.press("Enter");
    await page.locator(".vault-agent-banner:not(.is-hidden)").waitFor({ timeout: WAIT });
    assert((await page.locator(".vault-agent-banner-text").textContent()) === "No model selected.", "banner should say what is wrong");
    assert((await input.inputValue()) === "hello", "the unsent message should stay in the input");
    await shot("chat-error");
    await page.locator(".vault-agent-banner button", { hasText: "Open settings" }).click();
    await page.locator(".vault-agent-model-row").first().waitFor({ timeout: WAIT });
    const names = await page.locator(".vault-agent-model-name").allTextContents();
    assert(names.includes("Qwen2.5 0.5B Instruct") && names.includes("Llama 3.2 3B Instruct"), `model names were ${names}`);
    const facts = await page.locator(".vault-agent-model-facts").allTextContents();
    assert(facts.some((f) => f.startsWith("qwen2 · 494M params · Q4_K_M · 379 MB · 32,768 ctx")), `facts were ${JSON.stringify(facts)}`);
    assert(facts.some((f) => f.includes("truncated")), "an unreadable file should say why");
    await page.locator(".vault-agent-model-row", { hasText: "Qwen2.5 0.5B Instruct" }).locator("button", { hasText: "Use" }).click();
    await page.locator(".vault-agent-model-row.is-selected", { hasText: "Qwen2.5 0.5B Instruct" }).waitFor({ timeout: WAIT });
    await shot("settings-model-picker");
  });

  await check(`[${theme}] a model download shows its progress and can be cancelled`, async () => {
    const row = page.locator(".vault-agent-recommended", { hasText: "Qwen3.5 2B" });
    await row.locator("button", { hasText: "Download" }).click();
    await page.waitForFunction(() => (document.querySelector("progress.vault-agent-progress")?.value ?? 0) > 20_000_000, null, { timeout: WAIT });
    const line = await page.locator(".vault-agent-download-line").textContent();
    assert(/Qwen3\.5 2B \(Q4_K_M\) — \d+ MB of 381 MB/.test(line), `progress line was ${line}`);
    await page.locator(".vault-agent-download-progress button", { hasText: "Cancel" }).click();
    await page.locator(".vault-agent-download-line .vault-agent-error-text").waitFor({ timeout: WAIT });
    const error = await page.locator(".vault-agent-download-line").textContent();
    assert(error.includes("cancelled; start it again to resume"), `after cancel the line was ${error}`);
    assert((await page.locator(".vault-agent-download-progress button", { hasText: "Cancel" }).count()) === 0, "no Cancel after the download ended");
  });

  await check(`[${theme}] the engine choice shows the server fields, the key's storage note, and Test connection's sentence`, async () => {
    const engineRow = page.locator(".setting-item:not(.setting-item-heading)", { has: page.locator(".setting-item-name", { hasText: /^Engine$/ }) });
    await engineRow.locator("select").selectOption("llama-server");
    const url = page.locator('input[placeholder="For example http://127.0.0.1:8080"]');
    await url.waitFor({ timeout: WAIT });
    await url.fill("http://192.168.1.20:8080");
    await url.press("Tab");
    const key = page.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: /^API key$/ }) });
    assert((await key.locator("input").getAttribute("type")) === "password", "the API key field should hide what is typed");
    assert((await key.locator(".setting-item-description").textContent()).includes("plain text in this plugin's data.json"), "the key's storage should be disclosed");
    const constraint = await page.locator(".vault-agent-engine-constraint .setting-item-description").textContent();
    assert(constraint.startsWith("Turns are constrained by GBNF grammar"), `constraint line was ${constraint}`);
    await page.locator("button", { hasText: "Test connection" }).click();
    await page.locator(".vault-agent-engine-test .vault-agent-error-text").waitFor({ timeout: WAIT });
    const error = await page.locator(".vault-agent-engine-test").textContent();
    assert(error === "The llama.cpp server at http://192.168.1.20:8080 cannot be reached from the test harness.", `test result was ${error}`);
    await shot("settings-engine-server");
    await engineRow.locator("select").selectOption("builtin");
    await page.locator('input[placeholder="For example http://127.0.0.1:8080"]').waitFor({ state: "detached", timeout: WAIT });
  });

  await localLlamaScenes({ page, theme, check, assert, shot, WAIT });

  await check(`[${theme}] from Obsidian 1.11.4 the API key is a secret in the keychain, not a field in data.json`, async () => {
    await page.evaluate(() => window.harness.setApiVersion("1.11.4"));
    try {
      const engineRow = page.locator(".setting-item:not(.setting-item-heading)", { has: page.locator(".setting-item-name", { hasText: /^Engine$/ }) });
      await engineRow.locator("select").selectOption("openai");
      const key = page.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: /^API key$/ }) });
      await key.locator("input.vault-agent-fake-secret").waitFor({ timeout: WAIT });
      assert((await key.locator(".setting-item-description").textContent()).includes("Obsidian's keychain"), "the key's storage should be disclosed");
      await shot("settings-engine-secret");
      await engineRow.locator("select").selectOption("builtin");
    } finally {
      await page.evaluate(() => window.harness.setApiVersion("1.8.7"));
    }
  });

  await mcpScenes({ page, theme, check, assert, shot, input, waitTurnEnd, newConversation, call, say, WAIT });

  await runtimeScenes({ page, theme, check, assert, shot, WAIT });

  await memoryScenes({ page, theme, check, assert, shot, input, waitTurnEnd, newConversation, call, say, WAIT });

  await canvasScenes({ page, theme, check, assert, shot, input, waitTurnEnd, newConversation, call, say, WAIT });

  await pdfScenes({ page, theme, check, assert, shot, input, waitTurnEnd, newConversation, call, say, WAIT });

  await check(`[${theme}] unloading the plugin removes its commands, view type, ribbon icon and status bar item`, async () => {
    const left = await page.evaluate(() => window.harness.unload());
    assert(JSON.stringify(left) === JSON.stringify({ commands: 0, views: 0, ribbon: 0, statusBar: 0 }), `left behind: ${JSON.stringify(left)}`);
  });

  await check(`[${theme}] no uncaught errors in the page`, async () => {
    assert(pageErrors.length === 0, `page errors: ${pageErrors.join(" | ")}`);
  });
  await page.close();
}

let context;
const profile = mkdtempSync(join(tmpdir(), "vault-agent-e2e-"));
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  if (!MOBILE_ONLY) for (const theme of ["light", "dark"]) await runTheme(context, theme);
  if (!MOBILE_ONLY) await editScenes({ chromium, executablePath: CHROMIUM, outDir, screensDir, check, assert, log, WAIT });
  await memoryPhoneScenes({ context, html: pathToFileURL(join(outDir, "phone.html")).href, notes, screensDir, check, assert, join, call, say, WAIT });
  if (!ONLY) await mobileScenes({ chromium, executablePath: CHROMIUM, html: pathToFileURL(join(outDir, "mobile.html")).href, notes, screensDir, check, assert, log, join, WAIT });
} catch (error) {
  results.push({ name: "launch and run", ok: false, error });
  log(`  ✗ could not run the browser: ${error?.message ?? error}`);
} finally {
  await context?.close().catch(() => undefined);
  rmSync(profile, { recursive: true, force: true });
}

const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed;
log(`screenshots: ${relative(root, screensDir)}/`);
log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
