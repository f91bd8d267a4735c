/** Fakes of Obsidian's Workspace, leaves, views and the Markdown editor. */
import type { App } from "./app";
import { Component, Events } from "./events";
import { TFile } from "./vault";

export interface ViewState {
  type: string;
  active?: boolean;
  state?: Record<string, unknown>;
}

export abstract class View extends Component {
  app: App;
  leaf: WorkspaceLeaf;
  containerEl: HTMLElement;
  icon = "document";
  navigation = false;
  constructor(leaf: WorkspaceLeaf) {
    super();
    this.leaf = leaf;
    this.app = leaf.app;
    this.containerEl = typeof document === "undefined" ? (null as unknown as HTMLElement) : document.createElement("div");
    this.containerEl?.addClass("view-content-container");
  }
  abstract getViewType(): string;
  abstract getDisplayText(): string;
  getIcon(): string {
    return this.icon;
  }
  async onOpen(): Promise<void> {}
  async onClose(): Promise<void> {}
  getState(): Record<string, unknown> {
    return {};
  }
  async setState(_state: unknown, _result: unknown): Promise<void> {}
}

export abstract class ItemView extends View {
  contentEl: HTMLElement;
  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    if (this.containerEl) {
      this.containerEl.addClass("workspace-leaf-content");
      const header = this.containerEl.createDiv({ cls: "view-header" });
      header.createDiv({ cls: "view-header-title", text: "" });
      this.contentEl = this.containerEl.createDiv({ cls: "view-content" });
    } else this.contentEl = null as unknown as HTMLElement;
  }
  addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const header = this.containerEl.querySelector<HTMLElement>(".view-header")!;
    const el = header.createDiv({ cls: "clickable-icon view-action", attr: { "aria-label": title, "data-icon": icon } });
    el.addEventListener("click", (evt) => void callback(evt));
    return el;
  }
}

export interface EditorPosition {
  line: number;
  ch: number;
}

/** A plain-text editor model: the text, a cursor and one selection. */
export class Editor {
  private text = "";
  private anchor: EditorPosition = { line: 0, ch: 0 };
  private head: EditorPosition = { line: 0, ch: 0 };
  getValue(): string {
    return this.text;
  }
  setValue(text: string): void {
    this.text = text;
    this.anchor = this.head = { line: 0, ch: 0 };
  }
  lineCount(): number {
    return this.text.split("\n").length;
  }
  getLine(line: number): string {
    return this.text.split("\n")[line] ?? "";
  }
  posToOffset(pos: EditorPosition): number {
    const lines = this.text.split("\n");
    let offset = 0;
    for (let i = 0; i < pos.line && i < lines.length; i++) offset += lines[i].length + 1;
    return offset + pos.ch;
  }
  offsetToPos(offset: number): EditorPosition {
    const before = this.text.slice(0, offset).split("\n");
    return { line: before.length - 1, ch: before[before.length - 1].length };
  }
  setSelection(anchor: EditorPosition, head?: EditorPosition): void {
    this.anchor = anchor;
    this.head = head ?? anchor;
  }
  setCursor(pos: EditorPosition): void {
    this.setSelection(pos);
  }
  getCursor(which: "from" | "to" | "head" | "anchor" = "head"): EditorPosition {
    const [from, to] = this.ordered();
    return which === "from" ? from : which === "to" ? to : which === "anchor" ? this.anchor : this.head;
  }
  listSelections(): { anchor: EditorPosition; head: EditorPosition }[] {
    return [{ anchor: this.anchor, head: this.head }];
  }
  somethingSelected(): boolean {
    return this.posToOffset(this.anchor) !== this.posToOffset(this.head);
  }
  getSelection(): string {
    const [from, to] = this.ordered();
    return this.text.slice(this.posToOffset(from), this.posToOffset(to));
  }
  replaceSelection(replacement: string): void {
    const [from, to] = this.ordered();
    const start = this.posToOffset(from);
    this.text = this.text.slice(0, start) + replacement + this.text.slice(this.posToOffset(to));
    this.anchor = this.head = this.offsetToPos(start + replacement.length);
  }
  replaceRange(replacement: string, from: EditorPosition, to?: EditorPosition): void {
    const start = this.posToOffset(from);
    const end = to ? this.posToOffset(to) : start;
    this.text = this.text.slice(0, start) + replacement + this.text.slice(end);
  }
  focus(): void {}
  private ordered(): [EditorPosition, EditorPosition] {
    return this.posToOffset(this.anchor) <= this.posToOffset(this.head) ? [this.anchor, this.head] : [this.head, this.anchor];
  }
}

export class MarkdownView extends ItemView {
  editor = new Editor();
  file: TFile | null = null;
  getViewType(): string {
    return "markdown";
  }
  getDisplayText(): string {
    return this.file?.basename ?? "New tab";
  }
  getMode(): "source" | "preview" {
    return "source";
  }
  async load_file(file: TFile): Promise<void> {
    this.file = file;
    this.editor.setValue(await this.app.vault.read(file));
    if (this.contentEl) {
      this.contentEl.empty();
      this.contentEl.createEl("pre", { cls: "fake-editor", text: this.editor.getValue() });
    }
  }
}

export class WorkspaceLeaf extends Events {
  app: App;
  view: View;
  /** Where the leaf lives: the main area or a sidebar. */
  side: "main" | "left" | "right";
  containerEl: HTMLElement;
  constructor(app: App, side: "main" | "left" | "right") {
    super();
    this.app = app;
    this.side = side;
    this.containerEl = typeof document === "undefined" ? (null as unknown as HTMLElement) : document.createElement("div");
    this.containerEl?.addClass("workspace-leaf");
    this.view = new EmptyView(this);
  }
  getViewState(): ViewState {
    return { type: this.view.getViewType() };
  }
  async setViewState(state: ViewState): Promise<void> {
    const creator = this.app.viewRegistry.get(state.type);
    const next: View = state.type === "markdown" ? new MarkdownView(this) : creator ? creator(this) : new EmptyView(this);
    await this.closeView();
    this.view = next;
    if (this.containerEl && next.containerEl) this.containerEl.appendChild(next.containerEl);
    next.load();
    await next.onOpen();
    if (state.active) this.app.workspace.setActiveLeaf(this);
    this.app.workspace.trigger("layout-change");
  }
  async openFile(file: TFile): Promise<void> {
    if (!(this.view instanceof MarkdownView)) await this.setViewState({ type: "markdown" });
    await (this.view as MarkdownView).load_file(file);
    this.app.workspace.setActiveLeaf(this);
    this.app.workspace.trigger("file-open", file);
  }
  getDisplayText(): string {
    return this.view.getDisplayText();
  }
  detach(): void {
    void this.closeView();
    this.containerEl?.detach();
    this.app.workspace.removeLeaf(this);
  }
  private async closeView(): Promise<void> {
    await this.view.onClose();
    this.view.unload();
    this.view.containerEl?.detach();
  }
}

class EmptyView extends ItemView {
  getViewType(): string {
    return "empty";
  }
  getDisplayText(): string {
    return "New tab";
  }
}

export class Workspace extends Events {
  app: App;
  leaves: WorkspaceLeaf[] = [];
  activeLeaf: WorkspaceLeaf | null = null;
  /** The Markdown leaf that was last active: Obsidian keeps the editor context while a sidebar view has focus. */
  private lastMarkdownLeaf: WorkspaceLeaf | null = null;
  containerEl: HTMLElement | null;
  /** Hosts for leaves by side (the harness lays them out). */
  mainEl: HTMLElement | null = null;
  rightEl: HTMLElement | null = null;
  layoutReady = true;

  constructor(app: App) {
    super();
    this.app = app;
    this.containerEl = typeof document === "undefined" ? null : document.createElement("div");
  }

  onLayoutReady(cb: () => unknown): void {
    void cb();
  }

  private addLeaf(side: "main" | "left" | "right"): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app, side);
    this.leaves.push(leaf);
    const host = side === "right" ? this.rightEl : this.mainEl;
    if (host && leaf.containerEl) host.appendChild(leaf.containerEl);
    return leaf;
  }

  getRightLeaf(_split: boolean): WorkspaceLeaf {
    return this.addLeaf("right");
  }
  getLeftLeaf(_split: boolean): WorkspaceLeaf {
    return this.addLeaf("left");
  }
  getLeaf(newLeaf?: boolean | "tab" | "split" | "window"): WorkspaceLeaf {
    const existing = this.leaves.find((l) => l.side === "main");
    return !newLeaf && existing ? existing : this.addLeaf("main");
  }
  getLeavesOfType(type: string): WorkspaceLeaf[] {
    return this.leaves.filter((l) => l.view.getViewType() === type);
  }
  iterateAllLeaves(cb: (leaf: WorkspaceLeaf) => unknown): void {
    this.leaves.forEach(cb);
  }
  async revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    leaf.containerEl?.show();
  }
  detachLeavesOfType(type: string): void {
    for (const leaf of this.getLeavesOfType(type)) leaf.detach();
  }
  removeLeaf(leaf: WorkspaceLeaf): void {
    this.leaves = this.leaves.filter((l) => l !== leaf);
    if (this.activeLeaf === leaf) this.activeLeaf = null;
    if (this.lastMarkdownLeaf === leaf) this.lastMarkdownLeaf = null;
  }
  setActiveLeaf(leaf: WorkspaceLeaf): void {
    this.activeLeaf = leaf;
    if (leaf.view instanceof MarkdownView) this.lastMarkdownLeaf = leaf;
    this.trigger("active-leaf-change", leaf);
  }
  getActiveViewOfType<T extends View>(type: abstract new (...args: never[]) => T): T | null {
    const view = this.activeLeaf?.view;
    return view instanceof type ? view : null;
  }
  getActiveFile(): TFile | null {
    return this.activeEditor?.file ?? null;
  }
  /** The editor the user last worked in, even while the chat pane has focus. */
  get activeEditor(): { editor: Editor; file: TFile | null } | null {
    const view = this.lastMarkdownLeaf?.view;
    return view instanceof MarkdownView ? { editor: view.editor, file: view.file } : null;
  }
  getMostRecentLeaf(): WorkspaceLeaf | null {
    return this.lastMarkdownLeaf ?? this.activeLeaf;
  }
  async openLinkText(linktext: string, sourcePath: string, newLeaf?: boolean): Promise<void> {
    const file = this.app.metadataCache.getFirstLinkpathDest(linktext.split("#")[0], sourcePath);
    if (file) await this.getLeaf(newLeaf).openFile(file);
  }
  /** Test helper: opens a note in the main area and selects a range of it. */
  async openNote(path: string, select?: { from: number; to: number }): Promise<MarkdownView> {
    const file = this.app.vault.getFileByPath(path);
    if (!file) throw new Error(`No such note: ${path}`);
    const leaf = this.getLeaf(false);
    await leaf.openFile(file);
    const view = leaf.view as MarkdownView;
    if (select) view.editor.setSelection(view.editor.offsetToPos(select.from), view.editor.offsetToPos(select.to));
    return view;
  }
}

export { TFile };
