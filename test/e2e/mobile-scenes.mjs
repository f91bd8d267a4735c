// The phone: the harness in its mobile mode (mobile-harness.ts) at 390×844 with touch, the plugin's own
// MobileServices, and a real llama-server on 127.0.0.1 running the generated test model (random weights under the
// grammar), reached through requestUrl over this runner's fetch. Screens mobile-* in a light and a dark theme.
import { tsImport } from "tsx/esm/api";

const PHONE = { width: 390, height: 844 };

/** Starts the server, or returns null (and says why) when llama-server is not built here. */
async function startServer(log) {
  const helpers = await tsImport("../helpers/llama-server.ts", import.meta.url);
  const bin = helpers.requireLlamaServer("the mobile end-to-end test");
  if (!bin) return null;
  const { testModelPath } = await tsImport("../helpers/test-model.ts", import.meta.url);
  const model = await testModelPath();
  // A fixed seed keeps the random-weight model's replies the same from run to run.
  const server = await helpers.startLlamaServer(bin, model, ["-c", "4096", "-np", "1", "--embeddings", "--pooling", "mean", "--seed", "7"]);
  log(`llama-server on ${server.url} (${model.split("/").pop()})`);
  return server;
}

/** What the server was asked, by path; completions note whether a grammar came with them. */
function bridge(served) {
  return async (url, init) => {
    const path = new URL(url).pathname;
    const grammar = typeof init.body === "string" && init.body.includes('"grammar"');
    served.push({ path, grammar });
    const response = await fetch(url, { method: init.method, headers: init.headers, body: init.method === "GET" ? undefined : init.body });
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, headers: Object.fromEntries(response.headers.entries()), base64: bytes.toString("base64") };
  };
}

export async function mobileScenes({ chromium, executablePath, html, notes, screensDir, check, assert, log, join, WAIT }) {
  const server = await startServer(log);
  if (!server) return;
  const TURN = 120_000;
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"] });
  try {
    for (const theme of ["light", "dark"]) {
      log(`mobile ${theme} theme`);
      const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const served = [];
      const pageErrors = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.exposeFunction("harnessFetch", bridge(served));
      // Where the server allows the page's origin, AutoTransport uses the page's own fetch: seen here.
      page.on("request", (r) => {
        if (r.url().startsWith(server.url)) served.push({ path: new URL(r.url()).pathname, grammar: (r.postData() ?? "").includes('"grammar"') });
      });
      await page.goto(html);
      await page.evaluate(async (o) => window.harness.boot(o), { theme, notes, serverUrl: server.url });
      const shot = (name) => page.screenshot({ path: join(screensDir, `${name}-${theme}.png`) });
      const input = page.locator(".vault-agent-input");
      const waitTurnEnd = () => page.waitForFunction(() => document.querySelector("button.vault-agent-send")?.textContent === "Send", null, { timeout: TURN });
      const newConversation = () => page.evaluate(() => window.harness.runCommand("new-conversation"));
      /** Elements wider than the phone, or reaching past its right edge. */
      const overflow = () =>
        page.evaluate((w) => [...document.querySelectorAll(".vault-agent-chat *")].filter((el) => el.getBoundingClientRect().right > w + 0.5).map((el) => el.className).slice(0, 5), PHONE.width);

      await check(`[mobile ${theme}] on a phone the chat opens as a main tab, with touch-sized controls`, async () => {
        await page.locator('.side-dock-ribbon-action[aria-label="Open Vault Agent chat"]').tap();
        await page.locator(".vault-agent-empty").waitFor({ state: "visible", timeout: WAIT });
        assert((await page.evaluate(() => window.harness.chatSide())) === "main", "on a phone the chat should open in the main area");
        const send = await page.locator("button.vault-agent-send").boundingBox();
        assert(send && send.height >= 44, `the send button should be at least 44 px tall, was ${send?.height}`);
        assert((await overflow()).length === 0, `nothing may reach past 390 px: ${await overflow()}`);
        await shot("mobile-chat-empty");
      });

      await check(`[mobile ${theme}] Index vault embeds on the server into the flat index in the vault`, async () => {
        await page.evaluate(() => window.harness.runCommand("index-vault"));
        await page.waitForFunction(() => window.harness.notices().some((n) => n.startsWith("Indexed ") || n.startsWith("Indexing failed")), null, { timeout: TURN });
        const notice = (await page.evaluate(() => window.harness.notices())).find((n) => n.startsWith("Index"));
        assert(/^Indexed 2\d notes .*semantic and full-text/.test(notice), `notice was ${notice}`);
        assert(served.some((s) => /embed/.test(s.path)), `the server's embeddings should be asked, got ${JSON.stringify([...new Set(served.map((s) => s.path))])}`);
        // The flat store writes after a quiet period: wait for its files.
        const folder = ".obsidian/plugins/vault-agent/index/vectors";
        await page.waitForFunction((f) => window.harness.files(f).some((x) => x.size > 0), folder, { timeout: WAIT }).catch(() => undefined);
        const vectors = await page.evaluate((f) => window.harness.files(f), folder);
        assert(vectors.some((f) => f.size > 0), `the flat index should be saved in the vault, got ${JSON.stringify(vectors)}`);
      });

      await check(`[mobile ${theme}] a turn on the server is routed and its reply constrained by the GBNF grammar`, async () => {
        const before = served.length;
        await input.fill("Search my notes for the red lentil soup recipe");
        await page.locator("button.vault-agent-send").tap();
        await page.locator(".vault-agent-user").first().waitFor({ timeout: WAIT });
        await waitTurnEnd();
        const asked = served.slice(before);
        assert(asked.some((s) => s.grammar), `a completion with the envelope grammar should reach the server, got ${JSON.stringify(asked)}`);
        assert(asked.some((s) => /embed/.test(s.path)), "the router and memory should embed the message on the server");
        const status = await page.locator(".vault-agent-status").textContent();
        assert(/GBNF$/.test(status), `the status line should name the GBNF constraint, got "${status}"`);
        assert((await page.locator(".vault-agent-assistant").count()) > 0, "the turn should show the assistant's reply");
      });

      // Random weights choose their own tool calls: new conversations until one asks to write (deterministic for
      // a fixed seed), which must wait for approval.
      await check(`[mobile ${theme}] a write the model asks for waits for approval, and Approve writes it`, async () => {
        let confirmed = false;
        let toolShot = false;
        // Random weights: a write under status "Task" comes a few times in a hundred replies, so ask up to 40 times.
        for (let i = 0; i < 40 && !confirmed; i++) {
          await newConversation();
          await input.fill(`Create a note called Garden plan ${i + 1} with my garden tasks`);
          await page.locator("button.vault-agent-send").tap();
          await page.waitForFunction(() => document.querySelector(".vault-agent-confirm") || document.querySelector("button.vault-agent-send")?.textContent === "Send", null, { timeout: TURN });
          if (!toolShot && (await page.locator('.vault-agent-tool[data-status="ok"], .vault-agent-tool[data-status="failed"]').count()) > 0) {
            assert((await overflow()).length === 0, `tool cards may not reach past 390 px: ${await overflow()}`);
            await page.locator('.vault-agent-tool[data-status="ok"], .vault-agent-tool[data-status="failed"]').last().evaluate((el) => el.scrollIntoView({ block: "start" }));
            await shot("mobile-chat-tool-call");
            toolShot = true;
          }
          confirmed = (await page.locator(".vault-agent-confirm").count()) > 0;
          if (!confirmed) await waitTurnEnd();
        }
        assert(confirmed, "no reply in 40 asked to write");
        const buttons = page.locator(".vault-agent-confirm-buttons button");
        for (const box of await Promise.all((await buttons.all()).map((b) => b.boundingBox()))) {
          assert(box && box.height >= 44 && box.x >= 0 && box.x + box.width <= PHONE.width, `a confirmation button does not fit the phone: ${JSON.stringify(box)}`);
        }
        assert((await overflow()).length === 0, `the confirmation may not reach past 390 px: ${await overflow()}`);
        await page.locator(".vault-agent-confirm").scrollIntoViewIfNeeded();
        await shot("mobile-confirm-write");
        // The card waiting for approval, by its place among the cards (it keeps it once approved).
        const pending = await page.evaluate(() => [...document.querySelectorAll(".vault-agent-tool")].findIndex((el) => el.querySelector(".vault-agent-confirm")));
        const notesBefore = JSON.stringify(await page.evaluate(() => window.harness.files().filter((f) => f.path.endsWith(".md") && !f.path.startsWith("."))));
        await page.locator(".vault-agent-confirm-buttons button", { hasText: "Approve" }).tap();
        await page.waitForFunction((i) => document.querySelectorAll(".vault-agent-tool")[i]?.getAttribute("data-status") !== "awaiting", pending, { timeout: TURN });
        // The model may ask for more: the turn is stopped once this call has run.
        if ((await page.locator("button.vault-agent-send").textContent()) === "Stop") await page.locator("button.vault-agent-send").tap();
        await waitTurnEnd();
        const notesAfter = JSON.stringify(await page.evaluate(() => window.harness.files().filter((f) => f.path.endsWith(".md") && !f.path.startsWith("."))));
        const status = await page.locator(".vault-agent-tool").nth(pending).getAttribute("data-status");
        assert(status === "ok" || status === "failed", `the approved call should have run, its card says ${status}`);
        assert(status !== "ok" || notesAfter !== notesBefore, "an approved write that succeeded must change the vault");
        if (!toolShot) await shot("mobile-chat-tool-call");
      });

      await check(`[mobile ${theme}] the settings show only what works on the phone, and Test connection's transport`, async () => {
        await page.evaluate(() => window.harness.openSettings());
        const hidden = await page.locator(".vault-agent-desktop-only").textContent();
        assert(hidden.includes("Needs the desktop app"), `the settings should say why parts are hidden, got ${hidden}`);
        const options = await page.locator(".setting-item:not(.setting-item-heading)", { has: page.locator(".setting-item-name", { hasText: /^Engine$/ }) }).locator("option").allTextContents();
        assert(!options.includes("This computer"), `the built-in engine should not be offered, got ${options}`);
        assert((await page.locator(".vault-agent-model-picker, .vault-agent-downloads, .vault-agent-runtime").count()) === 0, "model files and the runtime should be hidden");
        assert((await page.locator(".vault-agent-mcp-server").count()) === 0, "the stdio MCP server should be hidden");
        assert((await page.locator(".setting-item-name", { hasText: /^(GPU layers|Threads)$/ }).count()) === 0, "the built-in engine's GPU layers and threads should be hidden");
        assert((await page.locator(".vault-agent-mcp-hidden").textContent()).startsWith("1 local (stdio) server is hidden."), "the hidden stdio server should be counted");
        await page.locator("button", { hasText: "Test connection" }).tap();
        await page.locator(".vault-agent-engine-test-line").first().waitFor({ timeout: TURN });
        const lines = await page.locator(".vault-agent-engine-test-line").allTextContents();
        assert(lines[0].startsWith(`Connected to ${server.url}`), `test lines were ${JSON.stringify(lines)}`);
        assert(lines.some((l) => l.startsWith("Replies ")), `Test connection should say how replies travel, got ${JSON.stringify(lines)}`);
        await page.locator(".vault-agent-engine-test").scrollIntoViewIfNeeded();
        await shot("mobile-settings-engine");
        await page.evaluate(() => window.harness.closeSettings());
      });

      await check(`[mobile ${theme}] no uncaught errors in the page`, async () => {
        assert(pageErrors.length === 0, `page errors: ${pageErrors.join(" | ")}`);
      });
      await context.close();
    }
  } finally {
    await browser.close().catch(() => undefined);
    await server.stop();
  }
}
