/**
 * A large generated tool catalog for `bench router --tools N`: the 50 synthetic tools, then deterministic tools
 * in the shape MCP servers publish (`server_resource_action`, a one-sentence description, a few parameters with
 * descriptions), so that catalogs of hundreds or thousands of tools can be timed.
 */
import type { RoutableTool } from "../../core/router/tool-card";
import { syntheticCatalog } from "./synthetic-catalog";

const SERVERS = ["github", "jira", "slack", "calendar", "gmail", "drive", "notion", "linear", "stripe", "shopify", "hubspot", "zendesk", "postgres", "redis", "s3", "docker", "kubernetes", "sentry", "figma", "trello", "asana", "dropbox", "spotify", "weather", "maps", "twitter", "youtube", "confluence", "airtable", "salesforce"];
const RESOURCES = ["issue", "comment", "user", "project", "file", "folder", "message", "channel", "event", "invoice", "order", "customer", "ticket", "table", "record", "bucket", "container", "deployment", "alert", "board", "card", "playlist", "track", "forecast", "route", "post", "video", "page", "base", "lead"];
const ACTIONS: [verb: string, sentence: string, effect: RoutableTool["effect"]][] = [
  ["list", "List the {r}s of the {s} account, newest first, with paging.", "read"],
  ["get", "Get one {r} from {s} by its id, with all its fields.", "read"],
  ["search", "Search {s} {r}s by words in their title or body.", "read"],
  ["create", "Create a new {r} in {s} with the given fields.", "write"],
  ["update", "Update fields of an existing {s} {r}.", "write"],
  ["delete", "Delete a {r} from {s}; this cannot be undone.", "destructive"],
  ["archive", "Archive a {s} {r} so it no longer shows in lists.", "write"],
  ["export", "Export {s} {r}s as CSV or JSON.", "read"],
];

function* generated(): Generator<RoutableTool> {
  for (const s of SERVERS) {
    for (const r of RESOURCES) {
      for (const [verb, sentence, effect] of ACTIONS) {
        yield {
          name: `${s}_${r}_${verb}`,
          family: s,
          effect,
          description: sentence.replace(/\{r\}/g, r).replace(/\{s\}/g, s),
          routingHints: [],
          parameterText: `${r} id. The ${r}'s identifier in ${s}. limit. Most ${r}s to return. query. Words to look for.`,
        };
      }
    }
  }
}

/** `n` tools: the 50 synthetic ones first, then generated ones (up to 7,200). */
export function generatedCatalog(n: number): RoutableTool[] {
  const base: RoutableTool[] = syntheticCatalog().map((t) => ({
    name: t.name,
    family: t.name.split(":")[0],
    description: t.description,
    routingHints: [],
    effect: /:(delete|remove|trash)/.test(t.name) ? "destructive" : /:(write|append|edit|set|add|create|update|move|rename|complete|save|insert|replace|tag|link|apply|connect)/.test(t.name) ? "write" : "read",
  }));
  const out = base.slice(0, n);
  for (const t of generated()) {
    if (out.length >= n) break;
    out.push(t);
  }
  return out;
}
