/** Obsidian's Events and Component, enough for plugins to register and clean up. */

export interface EventRef {
  /** The emitter that owns this subscription. */
  e: Events;
  name: string;
  fn: (...args: unknown[]) => unknown;
}

export class Events {
  private handlers = new Map<string, EventRef[]>();

  on(name: string, callback: (...data: never[]) => unknown): EventRef {
    const ref: EventRef = { e: this, name, fn: callback as (...args: unknown[]) => unknown };
    const list = this.handlers.get(name) ?? [];
    list.push(ref);
    this.handlers.set(name, list);
    return ref;
  }

  off(name: string, callback: (...data: never[]) => unknown): void {
    const list = this.handlers.get(name) ?? [];
    this.handlers.set(
      name,
      list.filter((r) => r.fn !== (callback as unknown)),
    );
  }

  offref(ref: EventRef): void {
    const list = this.handlers.get(ref.name) ?? [];
    this.handlers.set(
      ref.name,
      list.filter((r) => r !== ref),
    );
  }

  trigger(name: string, ...data: unknown[]): void {
    for (const ref of [...(this.handlers.get(name) ?? [])]) {
      try {
        ref.fn(...data);
      } catch (error) {
        console.error(`fake obsidian: a "${name}" handler threw`, error);
      }
    }
  }

  tryTrigger(ref: EventRef, args: unknown[]): void {
    ref.fn(...args);
  }

  /** Test helper: how many handlers listen to this event. */
  listenerCount(name: string): number {
    return (this.handlers.get(name) ?? []).length;
  }
}

export class Component {
  private loaded = false;
  private children: Component[] = [];
  private cleanups: (() => unknown)[] = [];

  load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const result = this.onload() as unknown;
    if (result instanceof Promise) result.catch((e) => console.error("fake obsidian: onload failed", e));
    for (const child of this.children) child.load();
  }

  onload(): void | Promise<void> {}

  unload(): void {
    if (!this.loaded) return;
    this.loaded = false;
    for (const child of this.children.splice(0)) child.unload();
    for (const cleanup of this.cleanups.splice(0).reverse()) cleanup();
    this.onunload();
  }

  onunload(): void {}

  addChild<T extends Component>(component: T): T {
    this.children.push(component);
    if (this.loaded) component.load();
    return component;
  }

  removeChild<T extends Component>(component: T): T {
    this.children = this.children.filter((c) => c !== component);
    component.unload();
    return component;
  }

  register(cb: () => unknown): void {
    this.cleanups.push(cb);
  }

  registerEvent(ref: EventRef): void {
    this.register(() => ref.e.offref(ref));
  }

  registerDomEvent(el: EventTarget, type: string, callback: (ev: Event) => unknown, options?: boolean | AddEventListenerOptions): void {
    el.addEventListener(type, callback, options);
    this.register(() => el.removeEventListener(type, callback, options));
  }

  registerInterval(id: number): number {
    this.register(() => clearInterval(id));
    return id;
  }

  /** Test helper: whether load() ran and unload() did not. */
  get isLoaded(): boolean {
    return this.loaded;
  }
}
