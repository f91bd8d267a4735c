/** The settings' agent section: tools per message, router threshold, tool rounds, edits, network tools, tool families. */
import { Setting } from "obsidian";
import { toolFamilies } from "../../app/assemble-agent";
import { numberSetting, sliderSetting, type SectionDeps } from "./setting-inputs";

/** What the section needs from the plugin. */
export type AgentSectionDeps = SectionDeps;

export function renderAgentSection(containerEl: HTMLElement, deps: AgentSectionDeps): void {
  const s = deps.settings();
  new Setting(containerEl).setName("Agent").setHeading();
  sliderSetting(containerEl, "Tools offered per message", "How many tools the router offers the model for one message.", s.routerTopK, [1, 10, 1], (v) => deps.save({ routerTopK: v }));
  sliderSetting(containerEl, "Router threshold", "A tool is offered when its match score reaches this.", s.routerThreshold, [0, 1, 0.05], (v) => deps.save({ routerThreshold: v }));
  numberSetting(containerEl, "Tool rounds per message", "The most times the agent may call tools before it must answer.", s.maxToolRounds, [1, 20], (v) => deps.save({ maxToolRounds: v }));
  numberSetting(containerEl, "Largest saved conversation", "In megabytes. The oldest turns of a conversation leave its saved file beyond this size.", s.conversationMaxMb, [1, 100], (v) => deps.save({ conversationMaxMb: v }));
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
