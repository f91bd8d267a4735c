/** Full parse of a finished envelope: JSON, exactly the four keys in order, and their types. */
import { ENVELOPE_STATUSES, type Envelope, type EnvelopeStatus } from "../protocol/envelope";

export type EnvelopeParse = { ok: true; envelope: Envelope } | { ok: false; reason: string };

const KEYS = ["thought", "status", "message_to_user", "tool_calls"];

export function parseEnvelope(text: string): EnvelopeParse {
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    return { ok: false, reason: "The reply was not valid JSON; reply with exactly one JSON envelope object." };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) return { ok: false, reason: "The reply must be one JSON object (the envelope)." };
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length !== 4 || keys.some((k, i) => k !== KEYS[i])) {
    return { ok: false, reason: `The envelope must have exactly the keys ${KEYS.join(", ")} in this order; it had ${keys.join(", ") || "none"}.` };
  }
  if (typeof obj.thought !== "string") return { ok: false, reason: '"thought" must be a string.' };
  if (!ENVELOPE_STATUSES.includes(obj.status as EnvelopeStatus)) return { ok: false, reason: `"status" must be one of ${ENVELOPE_STATUSES.join(", ")}.` };
  if (obj.message_to_user !== null && typeof obj.message_to_user !== "string") return { ok: false, reason: '"message_to_user" must be a string or null.' };
  if (!Array.isArray(obj.tool_calls)) return { ok: false, reason: '"tool_calls" must be an array.' };
  for (const call of obj.tool_calls) {
    if (!call || typeof call !== "object" || typeof (call as { name?: unknown }).name !== "string") {
      return { ok: false, reason: 'Each tool call must be an object with a "name" string and an "args" object.' };
    }
    const args = (call as { args?: unknown }).args;
    if (!args || typeof args !== "object" || Array.isArray(args)) return { ok: false, reason: `Tool call "${(call as { name: string }).name}" needs an "args" object.` };
  }
  return { ok: true, envelope: obj as unknown as Envelope };
}
