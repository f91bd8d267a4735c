/**
 * The chat pane's first-run card: while no engine is ready it says so and offers the install (the same consent
 * screen and progress as the settings, through the shared InstallController); once installed it shows the ready
 * state until dismissed, then disappears.
 */
import { ButtonComponent } from "obsidian";
import type { InstallController } from "../runtime/install-controller";
import { renderInstallPanel, updateInstallPanel } from "../settings/engine-runtime-section";

/**
 * Renders into `el` and follows the install; returns the cleanup. `builtIn` says whether the built-in engine is
 * chosen: a server engine needs no runtime, so the card stays away.
 */
export function engineCard(el: HTMLElement, controller: InstallController, openSettings: () => void, builtIn: () => boolean = () => true): () => void {
  let disposed = false;
  /** The card's install panel, where progress is rewritten in place. */
  let panelEl: HTMLElement | null = null;
  const fill = async () => {
    const status = await controller.status().catch(() => null);
    if (disposed) return;
    el.empty();
    panelEl = null;
    const panel = controller.current.kind !== "idle";
    if (!status || (!panel && (status.ready || !builtIn()))) {
      el.addClass("is-hidden");
      return;
    }
    el.removeClass("is-hidden");
    const card = el.createDiv({ cls: "vault-agent-engine-card" });
    if (!panel) {
      card.createDiv({ cls: "vault-agent-engine-title", text: status.updateNeeded ? "Engine update needed" : "Set up the engine" });
      card.createDiv({
        text: status.offer
          ? status.updateNeeded
            ? `This version of the plugin needs engine runtime ${status.needed}. Nothing is downloaded until you click.`
            : "Vault Agent runs the model on this computer with a prebuilt engine. It is a one-time download; nothing is downloaded until you click."
          : "There is no engine pack for this computer's system; choose a server engine in the settings.",
      });
      const buttons = card.createDiv({ cls: "vault-agent-engine-buttons" });
      const offer = status.offer;
      if (offer) {
        const size = `${(offer.pack.bytes / 1024 ** 2).toFixed(1)} MB`;
        new ButtonComponent(buttons)
          .setButtonText(status.updateNeeded ? `Engine update needed (${size})` : `Set up the engine (${size})`)
          .setCta()
          .onClick(() => controller.ask(offer));
      }
      new ButtonComponent(buttons).setButtonText("Open settings").onClick(openSettings);
      return;
    }
    panelEl = card;
    renderInstallPanel(card, controller);
  };
  const off = controller.onChange(() => {
    if (panelEl && updateInstallPanel(panelEl, controller)) return;
    void fill();
  });
  void fill();
  return () => {
    disposed = true;
    off();
  };
}
