/** A whole-number settings input that saves valid values and marks invalid ones. */
import { Notice } from "obsidian";

export function numberInput(input: HTMLInputElement, value: number, min: number, max: number, save: (v: number) => Promise<void>): void {
  input.type = "number";
  input.min = String(min);
  input.max = String(max);
  input.value = String(value);
  input.addEventListener("change", () => {
    const v = Number(input.value);
    const ok = Number.isInteger(v) && v >= min && v <= max;
    input.toggleClass("is-invalid", !ok);
    if (ok) void save(v);
    else new Notice(`Enter a whole number from ${min} to ${max}.`);
  });
}
