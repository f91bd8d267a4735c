// Scenes of "llama.cpp on this computer": the engine choice shows the llama-server program field, the found
// program's version line and how the plugin runs it; no server address or API key fields.
export async function localLlamaScenes({ page, theme, check, assert, shot, WAIT }) {
  await check(`[${theme}] "llama.cpp on this computer" shows the found llama-server, its version, and no server fields`, async () => {
    const engineRow = page.locator(".setting-item:not(.setting-item-heading)", { has: page.locator(".setting-item-name", { hasText: /^Engine$/ }) });
    await engineRow.locator("select").selectOption("llama-cpp");
    const program = page.locator(".setting-item", { has: page.locator(".setting-item-name", { hasText: /^llama\.cpp program$/ }) });
    // The found program's line is part of that setting's description, styled like every other description.
    const found = program.locator(".setting-item-description .vault-agent-local-llama-check .vault-agent-engine-test-line");
    await found.waitFor({ timeout: WAIT });
    const line = await found.textContent();
    assert(/^Found llama-server \S+ at \S+llama-server: new enough for this plugin\.$/.test(line), `check line was ${line}`);
    assert((await page.locator('input[placeholder="For example http://127.0.0.1:8080"]').count()) === 0, "no server address field for a local llama-server");
    assert((await page.locator(".setting-item-name", { hasText: /^API key$/ }).count()) === 0, "no API key field: the plugin makes a key per start");
    const constraint = await page.locator(".vault-agent-engine-constraint .setting-item-description").textContent();
    assert(constraint.includes("sent to your llama-server with each turn"), `constraint line was ${constraint}`);
    // The engine choice at the top of the shot: the program field, its check line and how it runs follow it.
    await engineRow.evaluate((el) => el.scrollIntoView({ block: "start" }));
    await shot("settings-engine-local-llama");
    await engineRow.locator("select").selectOption("builtin");
    await found.waitFor({ state: "detached", timeout: WAIT });
  });
}
