/** The settings' agent section: tools per message, router threshold, tool rounds, edits, network tools, tool families. */
import { toolFamilies } from "../../app/assemble-agent";
import { TOOL_FAMILY_KEY } from "./setting-bindings";
import { numberRow, sliderRow, toggleRow, type SettingSection } from "./setting-rows";

export function agentSection(): SettingSection {
  return {
    type: "group",
    heading: "Agent",
    items: [
      sliderRow("routerTopK", "Tools offered per message", "How many tools the router offers the model for one message.", [1, 10, 1], ["router", "top k"]),
      sliderRow("routerThreshold", "Router threshold", "A tool is offered when its match score reaches this.", [0, 1, 0.05], ["score", "tool choice"]),
      numberRow("maxToolRounds", "Tool rounds per message", "The most times the agent may call tools before it must answer.", [1, 20], ["rounds", "steps"]),
      numberRow("conversationMaxMb", "Largest saved conversation", "In megabytes. The oldest turns of a conversation leave its saved file beyond this size.", [1, 100], [
        "conversation size",
        "history",
      ]),
      {
        name: "Edits to notes",
        desc: "Ask shows each edit with a preview before it happens.",
        aliases: ["write policy", "confirm", "permissions"],
        control: { type: "dropdown", key: "writePolicy", options: { confirm: "Ask before each edit", refuse: "Never edit notes" } },
      },
      toggleRow("networkTools", "Network tools", "Lets the agent fetch web pages you ask about. Off keeps everything on this computer.", ["web", "fetch", "internet"]),
      // One switch per tool family.
      ...toolFamilies().map(({ family, tools }) => toggleRow(`${TOOL_FAMILY_KEY}${family}`, `Tools: ${family}`, tools.join(", "), ["tool family", ...tools])),
    ],
  };
}
