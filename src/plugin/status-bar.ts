/** The status bar item: indexing progress while a job runs, otherwise the engine's state. */
import type { EngineStatus } from "./engine/managed-engine";

const ENGINE_TEXT: Record<EngineStatus["state"], string> = {
  idle: "Vault agent: idle",
  starting: "Vault agent: starting",
  loading: "Vault agent: loading model",
  ready: "Vault agent: ready",
  generating: "Vault agent: generating",
  error: "Vault agent: engine error",
};

export class StatusBar {
  private job: { name: string; done: number; total?: number } | null = null;
  private engine: EngineStatus = { state: "idle" };

  constructor(private readonly el: HTMLElement) {
    el.addClass("vault-agent-status-bar");
    this.render();
  }

  setEngine(status: EngineStatus): void {
    this.engine = status;
    this.render();
  }

  /** Progress of a long job; `done === total` clears it. */
  progress(job: string, done: number, total?: number): void {
    this.job = total !== undefined && done >= total ? null : { name: job, done, total };
    this.render();
  }

  private render(): void {
    if (this.job) {
      const { name, done, total } = this.job;
      this.el.setText(`Vault agent: ${name} ${done}${total !== undefined ? `/${total}` : ""}`);
    } else {
      this.el.setText(ENGINE_TEXT[this.engine.state]);
    }
    this.el.setAttr("aria-label", this.engine.error ?? "");
  }
}
