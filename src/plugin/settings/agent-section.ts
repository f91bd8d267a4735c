/** The settings' agent section: tools per message, router threshold, tool rounds, edits, network tools, tool families. */
import { Setting } from "obsidian";
import { toolFamilies } from "../../app/assemble-agent";
import { numberInput } from "./number-input";
import type { VaultAgentSettings } from "./settings";

/** What the section needs from the plugin. */
export interface AgentSectionDeps {
  settings: () => VaultAgentSettings;
  save: (patch: Partial<VaultAgentSettings>) => Promise<void>;
}

export function renderAgentSection(containerEl: HTMLElement, deps: AgentSectionDeps): void {
  const s = deps.settings();
  new Setting(containerEl).setName("Agent").setHeading();
  new Setting(containerEl)
    .setName("Tools offered per message")
    .setDesc("How many tools the router offers the model for one message.")
    .addSlider((sl) =>
      sl
        .setLimits(1, 10, 1)
        .setValue(s.routerTopK)
        .setDynamicTooltip()
        .onChange(async (v) => deps.save({ routerTopK: v })),
    );
  new Setting(containerEl)
    .setName("Router threshold")
    .setDesc("A tool is offered when its match score reaches this.")
    .addSlider((sl) =>
      sl
        .setLimits(0, 1, 0.05)
        .setValue(s.routerThreshold)
        .setDynamicTooltip()
        .onChange(async (v) => deps.save({ routerThreshold: v })),
    );
  new Setting(containerEl)
    .setName("Tool rounds per message")
    .setDesc("The most times the agent may call tools before it must answer.")
    .addText((t) => numberInput(t.inputEl, s.maxToolRounds, 1, 20, (v) => deps.save({ maxToolRounds: v })));
  new Setting(containerEl)
    .setName("Edits to notes")
    .setDesc("Ask shows each edit with a preview before it happens.")
    .addDropdown((d) =>
      d
        .addOptions({ confirm: "Ask before each edit", refuse: "Never edit notes" })
        .setValue(s.writePolicy)
        .onChange(async (v) => deps.save({ writePolicy: v === "refuse" ? "refuse" : "confirm" })),
    );
  new Setting(containerEl)
    .setName("Network tools")
    .setDesc("Lets the agent fetch web pages you ask about. Off keeps everything on this computer.")
    .addToggle((t) => t.setValue(s.networkTools).onChange(async (v) => deps.save({ networkTools: v })));
  renderToolFamilies(containerEl.createDiv({ cls: "vault-agent-families" }), deps);
}

/** One switch per tool family. */
function renderToolFamilies(families: HTMLElement, deps: AgentSectionDeps): void {
  const s = deps.settings();
  for (const { family, tools } of toolFamilies()) {
    new Setting(families)
      .setName(`Tools: ${family}`)
      .setDesc(tools.join(", "))
      .addToggle((t) =>
        t.setValue(!s.disabledToolFamilies.includes(family)).onChange(async (on) => {
          const current = new Set(deps.settings().disabledToolFamilies);
          if (on) current.delete(family);
          else current.add(family);
          await deps.save({ disabledToolFamilies: [...current] });
        }),
      );
  }
}
