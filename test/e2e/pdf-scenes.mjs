// e2e scene for PDFs: a PDF in the vault, the model reads a page of it with pdf:read (the harness's pdf.js is the
// pdfjs-dist package standing in for Obsidian's loadPdfJs()), the tool card shows the page's text under its link, and
// the answer cites the page as [[file.pdf#page=2]]. Screen: chat-pdf-answer in each theme. Called from run.mjs.

const PDF = "Papers/Greenhouse report.pdf";
const PAGES = [
  ["Greenhouse report 2025", "Prepared by the garden team."],
  ["Irrigation", "Tomato yield rose by 12 percent after drip irrigation.", "Basil did poorly in the north bed."],
  ["Appendix", "Soil moisture readings, weekly."],
];

/** Opens the pane when a filtered run starts without it. */
async function ensureChat(page, WAIT) {
  if ((await page.locator(".vault-agent-input").count()) > 0) return;
  await page.locator('.side-dock-ribbon-action[aria-label="Open Vault Agent chat"]').click();
  await page.locator(".vault-agent-input").waitFor({ timeout: WAIT });
}

/** Runs the PDF scene on a booted desktop page. */
export async function pdfScenes({ page, theme, check, assert, shot, input, waitTurnEnd, newConversation, call, say, WAIT }) {
  await check(`[${theme}] pdf:read reads a page of a PDF and the answer cites the page`, async () => {
    await page.evaluate(() => window.harness.closeSettings());
    await ensureChat(page, WAIT);
    await newConversation();
    if ((await page.evaluate(() => window.harness.files("Papers/").length)) === 0) {
      await page.evaluate(([path, pages]) => window.harness.createPdf(path, pages), [PDF, PAGES]);
    }
    await page.evaluate(
      (replies) => window.harness.script(replies, { chunkDelayMs: 3 }),
      [
        call("pdf:read", { path: PDF, pages: "2" }, null, "The report is a PDF; the irrigation results are on page 2."),
        say("Drip irrigation raised the tomato yield by 12 percent; basil did poorly in the north bed ([[Papers/Greenhouse report.pdf#page=2]]).", "Answered from page 2."),
      ],
    );
    await input.fill("What does the greenhouse report say about irrigation?");
    await input.press("Enter");
    await page.locator('.vault-agent-tool[data-status="ok"]').waitFor({ timeout: WAIT });
    await waitTurnEnd();
    const result = await page.locator(".vault-agent-tool .vault-agent-card-result").last().textContent();
    assert(result.includes("Papers/Greenhouse report.pdf, page 2 of 3"), `the card should name the page it read, got ${result}`);
    assert(result.includes("Tomato yield rose by 12 percent after drip irrigation."), `the card should hold the page's text, got ${result}`);
    const answer = await page.locator(".vault-agent-assistant .vault-agent-answer").last().textContent();
    assert(answer.includes("12 percent") && answer.includes("Greenhouse report.pdf"), `the answer should cite the report, got ${answer}`);
    // The answer's Markdown is rendered after its text has streamed: wait for its links, then read them.
    await page
      .locator(".vault-agent-assistant .vault-agent-answer")
      .last()
      .locator("a.internal-link")
      .first()
      .waitFor({ timeout: WAIT })
      .catch(() => undefined);
    const links = await page.locator(".vault-agent-assistant .vault-agent-answer").last().locator("a.internal-link").evaluateAll((as) => as.map((a) => a.getAttribute("data-href")));
    assert(links.includes("Papers/Greenhouse report.pdf#page=2"), `the citation should link the page, got ${JSON.stringify(links)}`);
    await shot("chat-pdf-answer");
  });
}
