import { describe, expect, it } from "vitest";
import { composerKey } from "../../../src/plugin/chat/composer-keys";

const key = (k: string, mods: Partial<{ shiftKey: boolean; isComposing: boolean; altKey: boolean; ctrlKey: boolean; metaKey: boolean }> = {}) =>
  composerKey({ key: k, shiftKey: false, isComposing: false, altKey: false, ctrlKey: false, metaKey: false, ...mods });

describe("chat input keys", () => {
  it("Enter sends", () => expect(key("Enter")).toBe("send"));
  it("Shift+Enter adds a line", () => expect(key("Enter", { shiftKey: true })).toBe("type"));
  it("Enter while an input method is composing does not send", () => expect(key("Enter", { isComposing: true })).toBe("type"));
  it("other keys type", () => expect(key("a")).toBe("type"));
});
