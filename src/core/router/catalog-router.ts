/**
 * A router that follows a changing catalog: when tools arrive or leave (MCP servers), the ToolRouter is rebuilt over
 * the new tool cards, keeping the note names it was told. The hook between the registry and the router.
 */
import type { AbortOptions } from "../ports/abort";
import type { RouteDecision, RouterPort } from "../ports/agent";
import type { ToolCatalog } from "../protocol/registry";
import type { ToolDefinition } from "../protocol/tool";
import type { ToolRouter } from "./tool-router";

export class CatalogRouter implements RouterPort {
  private router: ToolRouter;
  private notes: string[] | null = null;
  private properties: string[] = [];
  /** Stops following the catalog. */
  readonly dispose: () => void;

  constructor(
    private readonly catalog: ToolCatalog,
    /** Builds the router over these tools (options and embedder fixed by the caller). */
    private readonly build: (tools: ToolDefinition[]) => ToolRouter,
  ) {
    this.router = build(this.definitions());
    this.dispose = catalog.onChange(() => {
      this.router = this.build(this.definitions());
      if (this.notes) this.router.setNotes(this.notes, this.properties);
    });
  }

  private definitions(): ToolDefinition[] {
    return this.catalog.list().map((t) => t.definition);
  }

  /** The router for the catalog as it is now. */
  get current(): ToolRouter {
    return this.router;
  }

  setNotes(paths: Iterable<string>, properties: Iterable<string> = []): void {
    this.notes = [...paths];
    this.properties = [...properties];
    this.router.setNotes(this.notes, this.properties);
  }

  route(message: string, options?: AbortOptions): Promise<RouteDecision> {
    return this.router.route(message, options);
  }
}
