/**
 * A DOM for tests in plain Node that draw Obsidian UI with the fake module (the settings tab): domino's (@mixmark-io/domino, a dev
 * dependency; vectra's turndown uses the same). Import this before anything that imports
 * `obsidian`, so the fake's DOM helpers (createDiv, setText, toggle, ...) land on its prototypes.
 */
import { createRequire } from "node:module";

/** domino's entry point (its own typings declare another module name). */
const domino = createRequire(import.meta.url)("@mixmark-io/domino") as { createWindow(html: string): Window; createDocument(html: string): Document };

const g = globalThis as unknown as Record<string, unknown>;
if (typeof g.document === "undefined") {
  const window = domino.createWindow("<!doctype html><html><head></head><body></body></html>") as unknown as Record<string, unknown>;
  for (const name of ["window", "document", "Node", "Element", "HTMLElement", "DocumentFragment", "Text", "Event", "MouseEvent", "KeyboardEvent", "CustomEvent"]) {
    const value = name === "window" ? window : window[name];
    if (value !== undefined) g[name] = value;
  }
  // setIcon parses its SVG: an element from domino's HTML parser is enough for tests.
  g.DOMParser = class {
    parseFromString(text: string): { documentElement: Element } {
      const parsed = domino.createDocument(`<!doctype html><html><body>${text}</body></html>`);
      return { documentElement: parsed.body.firstElementChild ?? parsed.body };
    }
  };
}
