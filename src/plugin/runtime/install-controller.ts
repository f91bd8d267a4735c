/**
 * The engine install as the UI follows it: one state shared by the settings section and the chat pane's first-run
 * card, so closing the settings keeps a running download's progress and Cancel. The states are
 * consent → installing (stage, bytes) → ready, or error with one sentence. Nothing is downloaded before
 * `confirm()`, which only a click on the consent screen calls.
 */
import type { GpuKind } from "../../desktop/runtime/pack-format";
import type { InstallOutcome, InstallProgress, PackOffer } from "../../desktop/runtime/runtime-installer";
import type { RuntimeService, RuntimeStatus } from "./runtime-service";

export type InstallView =
  | { kind: "idle" }
  | { kind: "consent"; offer: PackOffer; gpu?: GpuKind }
  | { kind: "installing"; progress: InstallProgress; cancel: () => void }
  | { kind: "done"; outcome: InstallOutcome }
  | { kind: "error"; message: string };

export class InstallController {
  private view: InstallView = { kind: "idle" };
  private readonly listeners = new Set<() => void>();
  private lastStatus: RuntimeStatus | null = null;

  constructor(
    private readonly service: () => RuntimeService,
    /** Called after a runtime was installed or removed (the engine restarts on its next use). */
    private readonly changed: () => Promise<void> | void = () => undefined,
  ) {}

  get current(): InstallView {
    return this.view;
  }

  /** The last status read (for labels), refreshed by `status()`. */
  get cachedStatus(): RuntimeStatus | null {
    return this.lastStatus;
  }

  async status(): Promise<RuntimeStatus> {
    this.lastStatus = await this.service().status();
    return this.lastStatus;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Shows the consent screen for a pack. */
  ask(offer: PackOffer, gpu?: GpuKind): void {
    if (this.view.kind === "installing") return;
    this.set({ kind: "consent", offer, gpu });
  }

  /** Back from the consent screen or an error, without doing anything. */
  dismiss(): void {
    if (this.view.kind !== "installing") this.set({ kind: "idle" });
  }

  /** The user's click on the consent screen's Download button. */
  async confirm(): Promise<void> {
    if (this.view.kind !== "consent") return;
    const { offer, gpu } = this.view;
    const controller = new AbortController();
    const cancel = () => controller.abort();
    this.set({ kind: "installing", progress: { stage: "download", pack: offer.pack }, cancel });
    await this.run(() => this.service().install({ gpu, signal: controller.signal, onProgress: (progress) => this.set({ kind: "installing", progress, cancel }) }));
  }

  /** "Install from file…": the same checks on a pack the user downloaded by hand. */
  async installFile(file: string): Promise<void> {
    if (this.view.kind === "installing") return;
    const cancel = () => undefined;
    const status = this.lastStatus ?? (await this.status());
    const pack = status.offer?.pack ?? { platform: "linux-x64" as const, file, bytes: 0, sha256: "", unpackedBytes: 0 };
    this.set({ kind: "installing", progress: { stage: "verify", pack }, cancel });
    await this.run(() => this.service().installFromFile(file, (progress) => this.set({ kind: "installing", progress, cancel })));
  }

  /** "Remove engine". Resolves with the bytes freed. */
  async remove(): Promise<number> {
    const freed = await this.service().remove();
    await this.status();
    this.set({ kind: "idle" });
    await this.changed();
    return freed;
  }

  private async run(job: () => Promise<InstallOutcome>): Promise<void> {
    try {
      const outcome = await job();
      await this.status();
      this.set({ kind: "done", outcome });
      await this.changed();
    } catch (error) {
      await this.status().catch(() => null);
      this.set({ kind: "error", message: error instanceof Error ? error.message : String(error) });
    }
  }

  private set(view: InstallView): void {
    this.view = view;
    for (const listener of this.listeners) listener();
  }
}
