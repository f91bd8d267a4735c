/**
 * The family line and the self-check of one row in the settings' model list. The self-check runs on
 * the model in use (it loads that model), when the user asks; its last result per file stays shown
 * while the tab is open.
 */
import { ButtonComponent } from "obsidian";
import { describeFamily } from "./model-family";
import type { ModelEntry } from "./model-library";
import type { SelfCheckResult } from "./self-check";

/** Last self-check result per model path. */
const results = new Map<string, SelfCheckResult>();

export function renderModelChecks(
  text: HTMLElement,
  actions: HTMLElement,
  entry: ModelEntry,
  inUse: boolean,
  selfCheck: (() => Promise<SelfCheckResult>) | undefined,
): void {
  if (!entry.info) return;
  text.createDiv({ cls: "vault-agent-model-facts", text: describeFamily(entry.info) });
  const status = text.createDiv({ cls: "vault-agent-model-check" });
  const show = (r: SelfCheckResult | undefined) => {
    status.setText(r?.detail ?? "");
    status.toggleClass("mod-ok", r?.ok === true);
    status.toggleClass("vault-agent-error-text", r?.ok === false);
  };
  show(results.get(entry.path));
  if (!inUse || !selfCheck) return;
  const button = new ButtonComponent(actions).setButtonText("Self-check").setTooltip("Load the model and generate one token under a grammar");
  button.onClick(async () => {
    button.setDisabled(true);
    status.setText("Checking…");
    const result = await selfCheck();
    results.set(entry.path, result);
    show(result);
    button.setDisabled(false);
  });
}
