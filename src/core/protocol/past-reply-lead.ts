/**
 * How grammar turns render past replies so each prompt extends the last, whatever renders the template (node-llama-cpp's
 * chat wrappers in the engine host, llama-server's `/apply-template`). Thinking models' templates (those with an
 * `enable_thinking` switch: Qwen3, Qwen3.5, SmolLM3, Gemma 4) run grammar turns with thinking off, and their generation
 * prompt then puts more before the reply than they keep of a reply already given (Qwen3 and Qwen3.5 open and close an
 * empty think span, `<think>\n\n</think>\n\n`, and drop it from past replies). Each round's prompt would then leave the
 * evaluated sequence just before the previous reply and read it again (on a recurrent model, everything after the last
 * checkpoint). So past replies are rendered with the lead their generation prompt had: the lead is found by rendering a
 * prompt and its continuation (no template knowledge), and kept only where the renderer checks that it makes the
 * continuation extend the prompt token for token.
 */
import type { ChatMessage } from "./messages";

/** Whether a chat template has a thinking mode (grammar turns then run with it off). */
export function hasThinkingSwitch(template: string): boolean {
  return /enable_thinking/.test(template);
}

/** The reply both probe renders carry. */
export const LEAD_PROBE_REPLY = '{"thought":"x"}';

/**
 * The two conversations a renderer renders to find the lead: `open` ends where a reply is asked for (render it with the
 * generation prompt), `past` holds that reply and a next message (render it with the generation prompt too).
 */
export const LEAD_PROBE: { readonly open: readonly ChatMessage[]; readonly past: readonly ChatMessage[] } = {
  open: [{ role: "user", content: "a" }],
  past: [
    { role: "user", content: "a" },
    { role: "assistant", content: LEAD_PROBE_REPLY },
    { role: "user", content: "b" },
  ],
};

/**
 * The text the generation prompt (`openText`, the render of LEAD_PROBE.open) puts before a reply that the render of the
 * conversation going on (`pastText`, of LEAD_PROBE.past) leaves out of it; null when the two do not line up that way
 * (the renderer then keeps the template's own rendering). An empty lead is none.
 */
export function pastReplyLead(openText: string, pastText: string): string | null {
  const at = pastText.indexOf(LEAD_PROBE_REPLY);
  if (at < 0 || openText.length <= at || !openText.startsWith(pastText.slice(0, at))) return null;
  return openText.slice(at);
}

/**
 * A rendered prompt with `lead` put back before each past reply: the messages' texts are found in order in `rendered`,
 * and every assistant message but a trailing one (which the prompt continues) gets the lead where the text before it
 * does not already end with it. For renderers that cannot be handed the lead as part of a reply (a template that cuts
 * a think span out of an assistant message's text, as Qwen3's and Qwen3.5's do).
 */
export function withPastReplyLeads(rendered: string, messages: readonly ChatMessage[], lead: string): string {
  if (lead === "") return rendered;
  let out = "";
  let from = 0;
  messages.forEach((m, i) => {
    // Templates may trim a message's text.
    const text = rendered.includes(m.content, from) ? m.content : m.content.trim();
    const at = text === "" ? -1 : rendered.indexOf(text, from);
    if (at < 0) return;
    out += rendered.slice(from, at);
    if (m.role === "assistant" && i < messages.length - 1 && !out.endsWith(lead)) out += lead;
    out += text;
    from = at + text.length;
  });
  return out + rendered.slice(from);
}
