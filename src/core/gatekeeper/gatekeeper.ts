/**
 * The gatekeeper: every tool call the model emits passes here before a handler runs.
 * `check` is synchronous (state allowlist, alias repair, ajv validation, empty required fields, path policy);
 * `authorize` applies the effect policy (confirmation with a preview, or refusal when writes are off).
 */
import type { ConfirmDecision, ConfirmRequest } from "../ports/user";
import type { EnvelopeToolCall } from "../protocol/envelope";
import type { ToolContext } from "../protocol/tool";
import type { RegisteredTool, ToolCatalog } from "../protocol/registry";
import { describeSchemaErrors } from "./schema-errors";
import { repairAliases } from "./alias-repair";
import { checkVaultPath } from "./path-policy";
import { checkPathsExist } from "./grounding-policy";
import type { VaultPathIndex } from "../grammar/vault-paths";
import { ToolRefusal } from "./refusal";
import { allowedInState, stateRule, type AgentState } from "./states";
import { judgeOutbound, type OutboundContext, type OutboundVerdict } from "./outbound-policy";

export { ToolRefusal } from "./refusal";
export type { AgentState } from "./states";
export { outboundContext, type OutboundContext, type EntryView } from "./outbound-policy";

/** A call that passed `check`: the tool, and args repaired, validated, defaulted and with normalized paths. */
export interface CheckedCall {
  tool: RegisteredTool;
  /** Args as the handler receives them. */
  args: Record<string, unknown>;
  /** Alias renames made. */
  renamed: { from: string; to: string }[];
}

export interface CheckContext {
  state: AgentState;
  /** Tools offered for this generation. */
  offered: ReadonlySet<string>;
  /** During Recover: the tools being corrected. */
  targets?: ReadonlySet<string>;
}

export interface AuthorizeContext {
  /** "refuse": write and destructive calls are refused; "confirm": the user is asked. */
  writes: "confirm" | "refuse";
  /** The sentence that says how to turn writes on (CLI: "rerun with --allow-writes"). */
  writesOffHint: string;
  /** Tools approved with "always" in this conversation. */
  alwaysAllowed: Set<string>;
  /** The conversation so far, for the outbound-data policy; absent: the policy only sees the call. */
  outbound?: OutboundContext;
  /** Called before and after asking, so the loop can emit events. */
  onAsk?(request: ConfirmRequest): void;
  onAnswer?(decision: ConfirmDecision): void;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);
}

export class Gatekeeper {
  constructor(
    private readonly tools: ToolCatalog,
    private readonly ctx: Pick<ToolContext, "vault" | "settings" | "user">,
    /** The vault's paths, when the agent grounds path args: a missing path is refused with the nearest ones. */
    private readonly paths?: VaultPathIndex,
  ) {}

  /** Checks one call; throws a ToolRefusal with an actionable sentence. */
  check(call: EnvelopeToolCall, context: CheckContext): CheckedCall {
    const tool = this.tools.get(call.name);
    const offeredList = [...context.offered].join(", ") || "none";
    if (!tool) throw new ToolRefusal("unknown_tool", `There is no tool "${call.name}"; call one of: ${offeredList}.`, call.name);
    if (!context.offered.has(call.name)) {
      throw new ToolRefusal("not_offered", `Tool "${call.name}" was not offered for this message; call one of: ${offeredList}.`, call.name);
    }
    const def = tool.definition;
    if (!allowedInState(context.state, def.effect, context.targets?.has(call.name) ?? false)) {
      throw new ToolRefusal("not_allowed_in_state", `Tool "${call.name}" cannot run in state ${context.state}: ${stateRule(context.state)}.`, call.name);
    }
    const rawArgs = call.args && typeof call.args === "object" && !Array.isArray(call.args) ? call.args : {};
    const { args: repaired, renamed } = repairAliases(rawArgs, tool.keys, def.aliases);
    if (!tool.validate(repaired)) {
      throw new ToolRefusal("invalid_args", `Tool "${call.name}" got invalid arguments: ${describeSchemaErrors(tool.validate.errors)}; call it again with arguments that match its schema.`, call.name);
    }
    for (const key of tool.required) {
      if (isEmpty(repaired[key])) {
        throw new ToolRefusal("empty_required", `Tool "${call.name}" needs a non-empty "${key}"; fill it in and call it again.`, call.name);
      }
    }
    const parsed = def.args.safeParse(repaired);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `"${issue.path.join(".")}" ` : "";
      throw new ToolRefusal("invalid_args", `Tool "${call.name}" got invalid arguments: ${where}${issue?.message ?? "invalid"}; call it again with arguments that match its schema.`, call.name);
    }
    const args: Record<string, unknown> = { ...parsed.data };
    for (const key of def.pathArgs ?? []) {
      const value = args[key];
      if (typeof value !== "string") continue;
      const result = checkVaultPath(value, { configDir: this.ctx.vault.configDir, excludedFolders: this.ctx.settings.excludedFolders });
      if (!result.ok) throw new ToolRefusal("path_refused", result.reason, call.name);
      args[key] = result.path;
    }
    const missing = this.paths ? checkPathsExist(def, args, this.paths) : null;
    if (missing) throw new ToolRefusal("path_refused", missing, call.name);
    return { tool, args, renamed };
  }

  /** Applies the effect and outbound-data policies; resolves when the call may run, throws a ToolRefusal otherwise. */
  async authorize(checked: CheckedCall, toolCtx: ToolContext, policy: AuthorizeContext): Promise<void> {
    const def = checked.tool.definition;
    const verdict = this.judge(checked, policy);
    if (def.effect === "read" && !verdict.outbound) return;
    // A change that stays in the conversation (a staged memory) touches no note: nothing to confirm or refuse.
    if (def.conversationOnly && !def.origin) return;
    const origin = def.origin ? `MCP server “${def.origin.server}”, tool ${def.origin.tool}` : undefined;
    if (def.effect !== "read" && policy.writes === "refuse") {
      const what = origin ? `may change things outside the vault (${origin})` : "changes the vault";
      throw new ToolRefusal("write_not_permitted", `Tool "${def.name}" ${what} and writes are off: ${policy.writesOffHint}`, def.name);
    }
    if (policy.alwaysAllowed.has(def.name) && !verdict.suspendAlways) return;
    const full = JSON.stringify(checked.args, null, 2);
    const preview =
      def.preview && !(verdict.outbound && def.effect === "read")
        ? await def.preview(checked.args, toolCtx)
        : {
            summary: def.name === "web:fetch" && typeof checked.args.url === "string" ? `Fetch ${checked.args.url}` : `${def.name} ${JSON.stringify(checked.args).slice(0, 120)}`,
            // Outbound: the full arguments, never cut, so the person sees every byte that leaves.
            preview: full,
            previewKind: "text" as const,
          };
    const request: ConfirmRequest = {
      tool: def.name,
      effect: def.effect === "read" ? "outbound" : def.effect,
      summary: preview.summary,
      preview: verdict.outbound && preview.preview !== full ? `${preview.preview}\n\nArguments sent:\n${full}` : preview.preview,
      previewKind: preview.previewKind,
      args: checked.args,
      ...(origin ? { origin } : {}),
      ...(verdict.lines.length ? { notes: verdict.lines } : {}),
    };
    policy.onAsk?.(request);
    const decision = await this.ctx.user.confirm(request);
    policy.onAnswer?.(decision);
    if (decision === "always") policy.alwaysAllowed.add(def.name);
    if (decision === "deny") {
      const what = def.effect === "read" ? "nothing was sent" : "nothing was changed";
      throw new ToolRefusal("denied_by_user", `The user declined ${def.name} (${preview.summary}); ${what}, so ask what they want instead.`, def.name);
    }
  }

  private judge(checked: CheckedCall, policy: AuthorizeContext): OutboundVerdict {
    const settings = { enabled: this.ctx.settings.outboundPolicy ?? true, trustedServers: this.ctx.settings.trustedMcpServers ?? [] };
    const context = policy.outbound ?? { turnId: "", userTexts: [], results: [] };
    return judgeOutbound(checked.tool.definition, checked.args, context, settings, (name) => this.tools.get(name)?.definition);
  }
}
