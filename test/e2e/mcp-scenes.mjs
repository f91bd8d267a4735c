// e2e scenes for MCP tools: a read-only MCP tool call in the chat (it asks first: its arguments go to a server not
// marked as trusted, and the card says so), a destructive one waiting for approval with its server and arguments
// shown, and the settings' MCP section (states, tools, import). Screens: chat-confirm-outbound, chat-mcp-tool and
// settings-mcp in each theme. Called from run.mjs with its helpers.

/** Runs the MCP scenes on a booted page. */
export async function mcpScenes({ page, theme, check, assert, shot, input, waitTurnEnd, newConversation, call, say, WAIT }) {
  await check(`[${theme}] an MCP tool call shows its card; a destructive one asks first, naming its server`, async () => {
    await page.evaluate(() => window.harness.closeSettings());
    await newConversation();
    await page.evaluate(
      (replies) => window.harness.script(replies, { chunkDelayMs: 5 }),
      [call("mcp:weather:get_forecast", { city: "Lisbon", days: 2 }), say("Lisbon will be sunny, around 24 °C, for the next two days.", "The forecast tool answered.")],
    );
    await input.fill("What is the weather forecast for Lisbon?");
    await input.press("Enter");
    // Its arguments leave the vault for a server not marked as trusted: the outbound-data policy asks, saying why.
    await page.locator(".vault-agent-confirm").waitFor({ timeout: WAIT });
    const notes = await page.locator(".vault-agent-confirm-note").allTextContents();
    assert(notes.some((n) => n.includes("“weather”") && n.includes("not marked as trusted")), `the card should say where the data goes, got ${JSON.stringify(notes)}`);
    await shot("chat-confirm-outbound");
    await page.locator(".vault-agent-confirm-buttons button", { hasText: "Approve" }).click();
    await page.locator('.vault-agent-tool[data-status="ok"]').waitFor({ timeout: WAIT });
    await waitTurnEnd();
    const card = page.locator(".vault-agent-tool").first();
    assert((await card.locator(".vault-agent-tool-name").textContent()) === "mcp:weather:get_forecast", "the card names the MCP tool");
    assert((await card.locator(".vault-agent-card-args").textContent()).includes('"Lisbon"'), "the card shows the arguments");

    await page.evaluate(
      (replies) => window.harness.script(replies, { chunkDelayMs: 5 }),
      [call("mcp:files:delete_file", { path: "old-notes.txt" }, "I will delete it once you approve."), say("Deleted old-notes.txt from your synced folder.")],
    );
    await input.fill("Delete the file old-notes.txt from my synced files");
    await input.press("Enter");
    await page.locator(".vault-agent-confirm").waitFor({ timeout: WAIT });
    const origin = await page.locator(".vault-agent-confirm-origin").textContent();
    assert(origin === "MCP server “files”, tool delete_file", `the card should name the server and tool, got ${origin}`);
    assert((await page.locator(".vault-agent-confirm-destructive").count()) === 1, "a destructive tool is marked so");
    const preview = await page.locator(".vault-agent-preview").textContent();
    assert(preview.includes('"path": "old-notes.txt"'), `the arguments are shown before it runs, got ${preview}`);
    assert((await page.evaluate(() => window.harness.mcpFiles())).includes("old-notes.txt"), "nothing runs before approval");
    await shot("chat-mcp-tool");
    await page.locator(".vault-agent-confirm-buttons button", { hasText: "Approve" }).click();
    await page.locator('.vault-agent-tool[data-status="ok"] >> nth=1').waitFor({ timeout: WAIT });
    await waitTurnEnd();
    assert(!(await page.evaluate(() => window.harness.mcpFiles())).includes("old-notes.txt"), "the approved call ran on the server");
  });

  await check(`[${theme}] the settings list MCP servers with their state and tools, and import a configuration`, async () => {
    await page.evaluate(() => window.harness.openSettings());
    await page.locator('.vault-agent-mcp-server[data-server="weather"].mod-ready').waitFor({ timeout: WAIT });
    const failed = page.locator('.vault-agent-mcp-server[data-server="broken"]');
    await failed.locator(".vault-agent-mcp-reason").waitFor({ timeout: WAIT });
    const reason = await failed.locator(".vault-agent-mcp-reason").textContent();
    assert(reason === 'MCP server "broken" could not start: the command "no-such-mcp-server" was not found; check the command or install it.', `reason was ${reason}`);
    const tools = await page.locator('.vault-agent-mcp-server[data-server="files"] .vault-agent-mcp-tool .setting-item-name').allTextContents();
    assert(JSON.stringify(tools) === JSON.stringify(["list_files", "delete_file"]), `files tools were ${JSON.stringify(tools)}`);
    const desc = await page.locator('.vault-agent-mcp-server[data-server="files"] .vault-agent-mcp-tool[data-effect="destructive"] .setting-item-description').textContent();
    assert(desc.startsWith("destructive · exact"), `the destructive tool says so and how its schema compiled, got ${desc}`);
    await page.locator(".vault-agent-mcp").scrollIntoViewIfNeeded();
    await shot("settings-mcp");

    // Switching a tool off is saved in the server's entry.
    await page.locator('.vault-agent-mcp-server[data-server="files"] .vault-agent-mcp-tool[data-effect="destructive"] .checkbox-container').click();
    await page.waitForFunction(() => {
      const data = JSON.parse(window.harness.read(".obsidian/plugins/vault-agent/data.json") ?? "{}");
      return JSON.stringify(data.mcpConfig?.mcpServers?.files?.disabledTools) === '["delete_file"]';
    }, null, { timeout: WAIT });

    // A malformed paste is one sentence and changes nothing; a good one adds the server.
    await page.locator(".vault-agent-mcp-import").fill('{"mcpServers": {"notes": {"args": []}}}');
    await page.locator(".vault-agent-mcp button", { hasText: "Import" }).click();
    const error = await page.locator(".vault-agent-mcp-import-error").textContent();
    assert(error === 'MCP server "notes" needs a "command" (the program to run) or a "url".', `import error was ${error}`);
    await page.locator(".vault-agent-mcp-import").fill('{"mcpServers": {"notes": {"command": "notes-mcp"}}}');
    await page.locator(".vault-agent-mcp button", { hasText: "Import" }).click();
    await page.locator('.vault-agent-mcp-server[data-server="notes"]').waitFor({ timeout: WAIT });
    assert((await page.locator(".vault-agent-mcp-import-error").count()) === 0, "the error clears after a good import");
    await page.evaluate(() => window.harness.closeSettings());
  });
}
