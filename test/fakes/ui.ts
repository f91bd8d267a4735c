/**
 * Fakes of Obsidian's UI pieces: Setting and its components, Modal, Notice, MarkdownRenderer, icons, and the
 * settings window. They need a DOM (the browser harness); in plain Node only their logic-free parts are usable.
 */
import type { App } from "./app";
import { Component } from "./events";

/** The DOM's document, or a clear failure in plain Node. */
export function doc(): Document {
  if (typeof document === "undefined") throw new Error("This part of the fake obsidian module needs a DOM; drive it from the browser harness.");
  return document;
}

/** A few Lucide icons (ISC license) drawn as Obsidian draws them: inline SVG, stroke in the text colour. */
const ICONS: Record<string, string> = {
  bot: '<path d="M12 8V4H8"/><rect width="16" height="12" x="4" y="8" rx="2"/><path d="M2 14h2"/><path d="M20 14h2"/><path d="M15 13v2"/><path d="M9 13v2"/>',
  plus: '<path d="M5 12h14"/><path d="M12 5v14"/>',
  x: '<path d="M18 6 6 18"/><path d="m6 6 12 12"/>',
  history: '<path d="M3 12a9 9 0 1 0 9-9 9.75 9.75 0 0 0-6.74 2.74L3 8"/><path d="M3 3v5h5"/><path d="M12 7v5l4 2"/>',
  copy: '<rect width="14" height="14" x="8" y="8" rx="2"/><path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2"/>',
  wrench:
    '<path d="M14.7 6.3a1 1 0 0 0 0 1.4l1.6 1.6a1 1 0 0 0 1.4 0l3.77-3.77a6 6 0 0 1-7.94 7.94l-6.91 6.91a2.12 2.12 0 0 1-3-3l6.91-6.91a6 6 0 0 1 7.94-7.94l-3.76 3.76z"/>',
  "alert-triangle": '<path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3"/><path d="M12 9v4"/><path d="M12 17h.01"/>',
  "file-text":
    '<path d="M15 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V7Z"/><path d="M14 2v4a2 2 0 0 0 2 2h4"/><path d="M10 9H8"/><path d="M16 13H8"/><path d="M16 17H8"/>',
  "text-cursor-input":
    '<path d="M5 4h1a3 3 0 0 1 3 3 3 3 0 0 1 3-3h1"/><path d="M13 20h-1a3 3 0 0 1-3-3 3 3 0 0 1-3 3H5"/><path d="M5 16H4a2 2 0 0 1-2-2v-4a2 2 0 0 1 2-2h1"/><path d="M13 8h7a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2h-7"/><path d="M9 7v10"/>',
  trash: '<path d="M3 6h18"/><path d="M19 6v14c0 1-1 2-2 2H7c-1 0-2-1-2-2V6"/><path d="M8 6V4c0-1 1-2 2-2h4c1 0 2 1 2 2"/>',
  "refresh-cw":
    '<path d="M3 12a9 9 0 0 1 9-9 9.75 9.75 0 0 1 6.74 2.74L21 8"/><path d="M21 3v5h-5"/><path d="M21 12a9 9 0 0 1-9 9 9.75 9.75 0 0 1-6.74-2.74L3 16"/><path d="M8 16H3v5"/>',
  "chevron-right": '<path d="m9 18 6-6-6-6"/>',
  check: '<path d="M20 6 9 17l-5-5"/>',
};

export function setIcon(parent: HTMLElement, iconId: string): void {
  parent.empty();
  const body = ICONS[iconId] ?? '<circle cx="12" cy="12" r="4"/>';
  const svgText = `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" class="svg-icon lucide-${iconId}">${body}</svg>`;
  const svg = new DOMParser().parseFromString(svgText, "image/svg+xml").documentElement;
  svg.setAttribute("data-icon", iconId);
  parent.appendChild(doc().importNode(svg, true));
}

export function setTooltip(el: HTMLElement, tooltip: string): void {
  el.setAttr("aria-label", tooltip);
  el.title = tooltip;
}

export class Notice {
  /** Every message shown, oldest first (tests read this). */
  static shown: string[] = [];
  noticeEl: HTMLElement | null = null;
  constructor(message: string | DocumentFragment, duration?: number) {
    const text = typeof message === "string" ? message : (message.textContent ?? "");
    Notice.shown.push(text);
    if (typeof document === "undefined") return;
    let container = document.body.querySelector<HTMLElement>(".notice-container");
    if (!container) container = document.body.createDiv({ cls: "notice-container" });
    this.noticeEl = container.createDiv({ cls: "notice", text });
    const el = this.noticeEl;
    setTimeout(() => el.detach(), duration ?? 4000);
  }
  setMessage(message: string): this {
    this.noticeEl?.setText(message);
    return this;
  }
  hide(): void {
    this.noticeEl?.detach();
  }
}

abstract class ValueComponent<T> {
  disabled = false;
  protected changeHandlers: ((value: T) => unknown)[] = [];
  abstract getValue(): T;
  abstract setValue(value: T): this;
  onChange(cb: (value: T) => unknown): this {
    this.changeHandlers.push(cb);
    return this;
  }
  protected fire(): void {
    for (const cb of this.changeHandlers) void cb(this.getValue());
  }
  then(cb: (c: this) => unknown): this {
    cb(this);
    return this;
  }
}

/** Text fields: an input or a textarea whose value is the component's value. */
abstract class TextFieldComponent<E extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
  constructor(readonly inputEl: E) {
    super();
    this.inputEl.addEventListener("input", () => this.fire());
  }
  getValue(): string {
    return this.inputEl.value;
  }
  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }
  setPlaceholder(placeholder: string): this {
    this.inputEl.placeholder = placeholder;
    return this;
  }
}

export class TextComponent extends TextFieldComponent<HTMLInputElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl("input", { type: "text" }));
  }
  setDisabled(disabled: boolean): this {
    this.inputEl.disabled = disabled;
    return this;
  }
}

/** Obsidian's secret picker (1.11.4): its value is a secret's name; here a text field holding the name. */
export class SecretComponent extends TextFieldComponent<HTMLInputElement> {
  constructor(_app: unknown, containerEl: HTMLElement) {
    super(containerEl.createEl("input", { type: "text", cls: "vault-agent-fake-secret" }));
  }
}

export class TextAreaComponent extends TextFieldComponent<HTMLTextAreaElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl("textarea"));
  }
}

export class ToggleComponent extends ValueComponent<boolean> {
  toggleEl: HTMLElement;
  private value = false;
  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = containerEl.createDiv({ cls: "checkbox-container" });
    this.toggleEl.createEl("input", { type: "checkbox" });
    this.toggleEl.addEventListener("click", () => {
      if (this.disabled) return;
      this.setValue(!this.value);
      this.fire();
    });
  }
  getValue(): boolean {
    return this.value;
  }
  setValue(value: boolean): this {
    this.value = value;
    this.toggleEl.toggleClass("is-enabled", value);
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    return this;
  }
  setTooltip(tooltip: string): this {
    setTooltip(this.toggleEl, tooltip);
    return this;
  }
}

export class DropdownComponent extends ValueComponent<string> {
  selectEl: HTMLSelectElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = containerEl.createEl("select", { cls: "dropdown" });
    this.selectEl.addEventListener("change", () => this.fire());
  }
  addOption(value: string, display: string): this {
    this.selectEl.createEl("option", { text: display, value });
    return this;
  }
  addOptions(options: Record<string, string>): this {
    for (const [value, display] of Object.entries(options)) this.addOption(value, display);
    return this;
  }
  getValue(): string {
    return this.selectEl.value;
  }
  setValue(value: string): this {
    this.selectEl.value = value;
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.selectEl.disabled = disabled;
    return this;
  }
}

export class SliderComponent extends ValueComponent<number> {
  sliderEl: HTMLInputElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.sliderEl = containerEl.createEl("input", { type: "range", cls: "slider" });
    this.sliderEl.addEventListener("input", () => this.fire());
  }
  setLimits(min: number | null, max: number | null, step: number | "any"): this {
    if (min !== null) this.sliderEl.min = String(min);
    if (max !== null) this.sliderEl.max = String(max);
    this.sliderEl.step = String(step);
    return this;
  }
  setDynamicTooltip(): this {
    return this;
  }
  getValue(): number {
    return Number(this.sliderEl.value);
  }
  setValue(value: number): this {
    this.sliderEl.value = String(value);
    return this;
  }
}

export class ButtonComponent {
  buttonEl: HTMLButtonElement;
  disabled = false;
  constructor(containerEl: HTMLElement) {
    this.buttonEl = containerEl.createEl("button");
  }
  setButtonText(name: string): this {
    this.buttonEl.setText(name);
    return this;
  }
  setIcon(icon: string): this {
    setIcon(this.buttonEl, icon);
    return this;
  }
  setTooltip(tooltip: string): this {
    setTooltip(this.buttonEl, tooltip);
    return this;
  }
  setCta(): this {
    this.buttonEl.addClass("mod-cta");
    return this;
  }
  setWarning(): this {
    this.buttonEl.addClass("mod-warning");
    return this;
  }
  /** 1.13's name for a destructive button. */
  setDestructive(): this {
    this.buttonEl.addClass("mod-destructive");
    return this;
  }
  setClass(cls: string): this {
    this.buttonEl.addClass(cls);
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    this.buttonEl.disabled = disabled;
    return this;
  }
  onClick(cb: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener("click", (evt) => {
      if (!this.disabled) void cb(evt);
    });
    return this;
  }
  then(cb: (c: this) => unknown): this {
    cb(this);
    return this;
  }
}

export class ExtraButtonComponent {
  extraSettingsEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    this.extraSettingsEl = containerEl.createDiv({ cls: "clickable-icon extra-setting-button" });
  }
  setIcon(icon: string): this {
    setIcon(this.extraSettingsEl, icon);
    return this;
  }
  setTooltip(tooltip: string): this {
    setTooltip(this.extraSettingsEl, tooltip);
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.extraSettingsEl.toggleClass("is-disabled", disabled);
    return this;
  }
  onClick(cb: () => unknown): this {
    this.extraSettingsEl.addEventListener("click", () => void cb());
    return this;
  }
}

export class Setting {
  settingEl: HTMLElement;
  infoEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  components: unknown[] = [];

  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv({ cls: "setting-item" });
    this.infoEl = this.settingEl.createDiv({ cls: "setting-item-info" });
    this.nameEl = this.infoEl.createDiv({ cls: "setting-item-name" });
    this.descEl = this.infoEl.createDiv({ cls: "setting-item-description" });
    this.controlEl = this.settingEl.createDiv({ cls: "setting-item-control" });
  }
  setName(name: string | DocumentFragment): this {
    this.nameEl.setText(name);
    return this;
  }
  setDesc(desc: string | DocumentFragment): this {
    this.descEl.setText(desc);
    return this;
  }
  setClass(cls: string): this {
    this.settingEl.addClass(cls);
    return this;
  }
  setHeading(): this {
    this.settingEl.addClass("setting-item-heading");
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.settingEl.toggleClass("is-disabled", disabled);
    return this;
  }
  setTooltip(tooltip: string): this {
    setTooltip(this.nameEl, tooltip);
    return this;
  }
  private add<T>(component: T, cb: (c: T) => unknown): this {
    this.components.push(component);
    cb(component);
    return this;
  }
  addText(cb: (c: TextComponent) => unknown): this {
    return this.add(new TextComponent(this.controlEl), cb);
  }
  addTextArea(cb: (c: TextAreaComponent) => unknown): this {
    return this.add(new TextAreaComponent(this.controlEl), cb);
  }
  addToggle(cb: (c: ToggleComponent) => unknown): this {
    return this.add(new ToggleComponent(this.controlEl), cb);
  }
  addDropdown(cb: (c: DropdownComponent) => unknown): this {
    return this.add(new DropdownComponent(this.controlEl), cb);
  }
  addSlider(cb: (c: SliderComponent) => unknown): this {
    return this.add(new SliderComponent(this.controlEl), cb);
  }
  addButton(cb: (c: ButtonComponent) => unknown): this {
    return this.add(new ButtonComponent(this.controlEl), cb);
  }
  addExtraButton(cb: (c: ExtraButtonComponent) => unknown): this {
    return this.add(new ExtraButtonComponent(this.controlEl), cb);
  }
  then(cb: (setting: this) => unknown): this {
    cb(this);
    return this;
  }
}

export class Modal {
  app: App;
  containerEl: HTMLElement;
  modalEl: HTMLElement;
  titleEl: HTMLElement;
  contentEl: HTMLElement;
  constructor(app: App) {
    this.app = app;
    this.containerEl = doc().createElement("div");
    this.containerEl.addClass("modal-container");
    this.containerEl.createDiv({ cls: "modal-bg" });
    this.modalEl = this.containerEl.createDiv({ cls: "modal" });
    const close = this.modalEl.createDiv({ cls: "modal-close-button" });
    close.addEventListener("click", () => this.close());
    this.titleEl = this.modalEl.createDiv({ cls: "modal-title" });
    this.contentEl = this.modalEl.createDiv({ cls: "modal-content" });
  }
  setTitle(title: string): this {
    this.titleEl.setText(title);
    return this;
  }
  open(): void {
    doc().body.appendChild(this.containerEl);
    this.onOpen();
  }
  close(): void {
    this.containerEl.detach();
    this.onClose();
  }
  onOpen(): void | Promise<void> {}
  onClose(): void {}
}

export abstract class SettingTab {
  app: App;
  containerEl: HTMLElement;
  /** 1.13: what getSettingDefinitions() returned at the last update(). */
  settingItems: unknown[] = [];
  /** Set while the fake settings window shows the tab from its definitions (setting-definitions.ts). */
  shownDefinitions: { redraw(): void; refreshDomState(): void; teardown(): void } | null = null;
  constructor(app: App) {
    this.app = app;
    this.containerEl = doc().createElement("div");
    this.containerEl.addClass("vertical-tab-content");
  }
  /** 1.13: the tab's declarative settings; none by default (the app then calls display()). */
  getSettingDefinitions(): unknown[] {
    return [];
  }
  /** 1.13: stores fresh definitions and, while they are shown, draws them again. */
  update(): void {
    this.settingItems = this.getSettingDefinitions();
    this.shownDefinitions?.redraw();
  }
  /** 1.13: re-evaluates every shown row's `visible` predicate in place. */
  refreshDomState(): void {
    this.shownDefinitions?.refreshDomState();
  }
  /** 1.13: the app's own tabs read the vault's config; plugin tabs override. */
  getControlValue(_key: string): unknown {
    return undefined;
  }
  setControlValue(_key: string, _value: unknown): void | Promise<void> {}
  display(): void {}
  hide(): void {
    this.shownDefinitions?.teardown();
    this.shownDefinitions = null;
  }
}

export abstract class PluginSettingTab extends SettingTab {
  plugin: { manifest: { id: string; name: string } };
  /** Obsidian reads `id`/`name` from the plugin to place the tab. */
  constructor(app: App, plugin: { manifest: { id: string; name: string } }) {
    super(app);
    this.plugin = plugin;
  }
  /** 1.13: reads `this.plugin.settings[key]`. */
  override getControlValue(key: string): unknown {
    return (this.plugin as { settings?: Record<string, unknown> }).settings?.[key];
  }
  /** 1.13: sets `this.plugin.settings[key]` and saves the plugin's data. */
  override async setControlValue(key: string, value: unknown): Promise<void> {
    const plugin = this.plugin as { settings?: Record<string, unknown>; saveData?(data: unknown): Promise<void> };
    if (!plugin.settings) return;
    plugin.settings[key] = value;
    await plugin.saveData?.(plugin.settings);
  }
}

/** A tiny Markdown renderer: blocks (headings, lists, tasks, quotes, fences, paragraphs) and inline marks. */
export class MarkdownRenderer extends Component {
  static async render(app: App, markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
    void component;
    renderBlocks(app, markdown, el, sourcePath);
  }
  static async renderMarkdown(markdown: string, el: HTMLElement, sourcePath: string, component: Component): Promise<void> {
    void component;
    renderBlocks(null, markdown, el, sourcePath);
  }
}

function renderBlocks(app: App | null, markdown: string, el: HTMLElement, sourcePath: string): void {
  const lines = markdown.split("\n");
  let list: HTMLElement | null = null;
  let para: string[] = [];
  const flush = () => {
    if (para.length) renderInline(app, el.createEl("p"), para.join(" "), sourcePath);
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fence = /^```(\w*)/.exec(line);
    if (fence) {
      flush();
      list = null;
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      el.createEl("pre").createEl("code", { text: code.join("\n"), cls: fence[1] ? `language-${fence[1]}` : undefined });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[(.)\]\s+)?(.*)$/.exec(line);
    if (heading) {
      flush();
      list = null;
      renderInline(app, el.createEl(`h${heading[1].length}` as "h1"), heading[2], sourcePath);
    } else if (item) {
      flush();
      list ??= el.createEl(/^\s*\d/.test(line) ? "ol" : "ul");
      const li = list.createEl("li");
      if (item[1] !== undefined) {
        li.addClass("task-list-item");
        const box = li.createEl("input", { type: "checkbox", cls: "task-list-item-checkbox" });
        box.checked = item[1] !== " ";
      }
      renderInline(app, li, item[2], sourcePath);
    } else if (line.startsWith(">")) {
      flush();
      list = null;
      renderInline(app, el.createEl("blockquote"), line.replace(/^>\s?/, ""), sourcePath);
    } else if (line.trim() === "") {
      flush();
      list = null;
    } else {
      list = null;
      para.push(line);
    }
  }
  flush();
}

function renderInline(app: App | null, el: HTMLElement, text: string, sourcePath: string): void {
  const pattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*]+\*|_[^_]+_)|(\[\[[^\]]+\]\])|(\[[^\]]*\]\([^)]+\))/g;
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    if (m.index > last) el.appendText(text.slice(last, m.index));
    const token = m[0];
    if (m[1]) el.createEl("code", { text: token.slice(1, -1) });
    else if (m[2]) el.createEl("strong", { text: token.slice(2, -2) });
    else if (m[3]) el.createEl("em", { text: token.slice(1, -1) });
    else if (m[4]) {
      const inner = token.slice(2, -2);
      const [target, alias] = inner.split("|");
      // Like Obsidian, the renderer only draws the link; the view that hosts it handles clicks.
      el.createEl("a", { cls: "internal-link", text: alias ?? target, attr: { "data-href": target, href: target } });
    } else if (m[5]) {
      const close = token.indexOf("](");
      el.createEl("a", { cls: "external-link", text: token.slice(1, close), attr: { href: token.slice(close + 2, -1) } });
    }
    last = m.index + token.length;
  }
  if (last < text.length) el.appendText(text.slice(last));
}
