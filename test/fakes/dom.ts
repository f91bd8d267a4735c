/**
 * Obsidian's HTMLElement helpers (createEl, createDiv, empty, setText, addClass, ...), installed on the DOM
 * prototypes when a DOM exists (the browser harness). In plain Node there is no DOM and nothing is installed.
 */

export interface DomElementInfo {
  cls?: string | string[];
  text?: string | DocumentFragment;
  attr?: Record<string, string | number | boolean | null>;
  title?: string;
  parent?: Node;
  value?: string;
  type?: string;
  prepend?: boolean;
  placeholder?: string;
  href?: string;
}

function applyInfo(el: HTMLElement, o?: DomElementInfo | string): void {
  if (o === undefined) return;
  const info: DomElementInfo = typeof o === "string" ? { cls: o } : o;
  if (info.cls) el.addClass(...(Array.isArray(info.cls) ? info.cls : info.cls.split(" ").filter(Boolean)));
  if (info.text !== undefined) el.setText(info.text);
  if (info.attr) for (const [k, v] of Object.entries(info.attr)) el.setAttr(k, v);
  if (info.title !== undefined) el.title = info.title;
  if (info.value !== undefined && "value" in el) (el as HTMLInputElement).value = info.value;
  if (info.type !== undefined) el.setAttribute("type", info.type);
  if (info.placeholder !== undefined) el.setAttribute("placeholder", info.placeholder);
  if (info.href !== undefined) el.setAttribute("href", info.href);
}

function make<K extends keyof HTMLElementTagNameMap>(
  parent: Node | null,
  tag: K,
  o?: DomElementInfo | string,
  callback?: (el: HTMLElementTagNameMap[K]) => void,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  applyInfo(el, o);
  const info = typeof o === "object" ? o : undefined;
  const target = info?.parent ?? parent;
  if (target) {
    if (info?.prepend) target.insertBefore(el, target.firstChild);
    else target.appendChild(el);
  }
  callback?.(el);
  return el;
}

/** Installs the helpers once; safe to call repeatedly. */
export function installDomHelpers(): void {
  if (typeof HTMLElement === "undefined") return;
  const proto = Node.prototype as unknown as Record<string, unknown>;
  if (proto.__fakeObsidianDom) return;
  proto.__fakeObsidianDom = true;
  const node = Node.prototype as unknown as Record<string, unknown>;
  const element = HTMLElement.prototype as unknown as Record<string, unknown>;
  node.createEl = function (this: Node, tag: keyof HTMLElementTagNameMap, o?: DomElementInfo | string, cb?: (el: HTMLElement) => void) {
    return make(this, tag, o, cb);
  };
  node.createDiv = function (this: Node, o?: DomElementInfo | string, cb?: (el: HTMLElement) => void) {
    return make(this, "div", o, cb);
  };
  node.createSpan = function (this: Node, o?: DomElementInfo | string, cb?: (el: HTMLElement) => void) {
    return make(this, "span", o, cb);
  };
  node.empty = function (this: Node) {
    while (this.firstChild) this.removeChild(this.firstChild);
  };
  node.instanceOf = function (this: Node, type: abstract new (...args: never[]) => unknown) {
    return this instanceof type;
  };
  node.appendText = function (this: Node, val: string) {
    this.appendChild(document.createTextNode(val));
  };
  node.detach = function (this: Node) {
    this.parentNode?.removeChild(this);
  };
  element.setText = function (this: HTMLElement, val: string | DocumentFragment) {
    if (typeof val === "string") this.textContent = val;
    else {
      this.textContent = "";
      this.appendChild(val);
    }
  };
  element.addClass = function (this: HTMLElement, ...classes: string[]) {
    this.classList.add(...classes.filter(Boolean));
  };
  element.removeClass = function (this: HTMLElement, ...classes: string[]) {
    this.classList.remove(...classes);
  };
  element.toggleClass = function (this: HTMLElement, classes: string | string[], value: boolean) {
    for (const c of Array.isArray(classes) ? classes : [classes]) this.classList.toggle(c, value);
  };
  element.hasClass = function (this: HTMLElement, cls: string) {
    return this.classList.contains(cls);
  };
  element.setAttr = function (this: HTMLElement, name: string, value: string | number | boolean | null) {
    if (value === null) this.removeAttribute(name);
    else this.setAttribute(name, String(value));
  };
  element.setAttrs = function (this: HTMLElement, attrs: Record<string, string | number | boolean | null>) {
    for (const [k, v] of Object.entries(attrs)) (this as unknown as { setAttr(k: string, v: unknown): void }).setAttr(k, v);
  };
  element.show = function (this: HTMLElement) {
    this.classList.remove("fake-hidden");
    this.hidden = false;
  };
  element.hide = function (this: HTMLElement) {
    this.hidden = true;
  };
  element.toggle = function (this: HTMLElement, show: boolean) {
    this.hidden = !show;
  };
  element.isShown = function (this: HTMLElement) {
    return !this.hidden;
  };
  element.onClickEvent = function (this: HTMLElement, listener: (ev: MouseEvent) => void) {
    this.addEventListener("click", listener);
  };
  const g = globalThis as unknown as Record<string, unknown>;
  g.createEl = (tag: keyof HTMLElementTagNameMap, o?: DomElementInfo | string, cb?: (el: HTMLElement) => void) => make(null, tag, o, cb);
  g.createDiv = (o?: DomElementInfo | string, cb?: (el: HTMLElement) => void) => make(null, "div", o, cb);
  g.createSpan = (o?: DomElementInfo | string, cb?: (el: HTMLElement) => void) => make(null, "span", o, cb);
  g.createFragment = (cb?: (el: DocumentFragment) => void) => {
    const fragment = document.createDocumentFragment();
    cb?.(fragment);
    return fragment;
  };
  g.activeDocument = document;
  g.activeWindow = window;
  (window as unknown as Record<string, unknown>).activeWindow = window;
  (window as unknown as Record<string, unknown>).activeDocument = document;
}
