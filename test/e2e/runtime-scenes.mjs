// The engine install scenes of the end-to-end test (run once per theme from run.mjs): with no engine the chat pane
// shows a first-run card; its consent screen says what, from where, how big and where, and nothing starts before
// the click; the download shows progress and can be cancelled; a finished install shows the ready state.
// Screens: engine-install-consent, engine-install-progress, engine-ready.

export async function runtimeScenes({ page, theme, check, assert, shot, WAIT }) {
  const card = page.locator(".vault-agent-engine-card");
  const reopenChat = async () => {
    await page.evaluate(() => window.harness.closeChat());
    await page.evaluate(() => window.harness.runCommand("open-chat"));
  };

  await check(`[${theme}] with no engine, the chat pane's first-run card opens a consent screen and nothing starts before the click`, async () => {
    await page.evaluate(() => window.harness.runtime.notInstalled());
    await reopenChat();
    await card.waitFor({ state: "visible", timeout: WAIT });
    const title = await card.locator(".vault-agent-engine-title").textContent();
    assert(title === "Set up the engine", `card title was ${title}`);
    await card.locator("button", { hasText: "Set up the engine (13.5 MB)" }).click();
    const consent = page.locator(".vault-agent-engine-consent");
    await consent.waitFor({ timeout: WAIT });
    const facts = await consent.locator(".vault-agent-engine-facts").textContent();
    assert(facts.includes("vault-agent-runtime-3.21.1-6ffa3883-linux-x64.tar.gz") && facts.includes("13.5 MB to download"), `what: ${facts}`);
    assert(facts.includes("/releases/download/0.1.0/"), `from where: ${facts}`);
    assert(facts.includes(".obsidian/plugins/vault-agent/runtime/3.21.1-6ffa3883-linux-x64"), `where: ${facts}`);
    assert(facts.includes("Prebuilt llama.cpp code (MIT license)"), `what it is: ${facts}`);
    assert((await page.evaluate(() => window.harness.runtime.installs)) === 0, "nothing may be downloaded before the click");
    await shot("engine-install-consent");
  });

  await check(`[${theme}] the engine download shows its progress and can be cancelled`, async () => {
    await page.evaluate(() => window.harness.runtime.holdDownload());
    await page.locator(".vault-agent-engine-consent button", { hasText: "Download 13.5 MB" }).click();
    await page.waitForFunction(() => (document.querySelector(".vault-agent-engine-progress progress")?.value ?? 0) > 5_000_000, null, { timeout: WAIT });
    const line = await page.locator(".vault-agent-engine-progress .vault-agent-download-line").textContent();
    assert(/^Downloading: vault-agent-runtime-.*linux-x64\.tar\.gz — \d+\.\d MB of 13\.5 MB$/.test(line), `progress line was ${line}`);
    await shot("engine-install-progress");
    // Progress keeps coming (every 40 ms while held): Cancel must stay the same button, or a click can be lost.
    await page.evaluate(() => document.querySelector(".vault-agent-engine-progress button")?.setAttribute("data-probe", "1"));
    await page.waitForTimeout(400);
    assert((await page.locator(".vault-agent-engine-progress button[data-probe]").count()) === 1, "Cancel was rebuilt while the download ran");
    await page.locator(".vault-agent-engine-progress button", { hasText: "Cancel" }).click();
    await page.locator(".vault-agent-engine-error").waitFor({ timeout: WAIT });
    const error = await page.locator(".vault-agent-engine-error").textContent();
    assert(error.includes("cancelled"), `after cancel: ${error}`);
    await page.locator(".vault-agent-engine-error button", { hasText: "Close" }).click();
    await card.locator("button", { hasText: "Set up the engine" }).waitFor({ timeout: WAIT });
  });

  await check(`[${theme}] a finished install shows the engine ready, then the card goes away`, async () => {
    await page.evaluate(() => window.harness.runtime.release());
    await card.locator("button", { hasText: "Set up the engine" }).click();
    await page.locator(".vault-agent-engine-consent button", { hasText: "Download 13.5 MB" }).click();
    const ready = page.locator(".vault-agent-engine-ready");
    await ready.waitFor({ timeout: WAIT });
    const text = await ready.textContent();
    assert(text.includes("Engine ready") && text.includes("passed its start-up check"), `ready text: ${text}`);
    await shot("engine-ready");
    await ready.locator("button", { hasText: "Done" }).click();
    await page.waitForFunction(() => document.querySelector(".vault-agent-engine-card-slot")?.classList.contains("is-hidden"), null, { timeout: WAIT });
  });
}
