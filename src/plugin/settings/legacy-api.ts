/**
 * Calls that differ between Obsidian 1.13 and the older apps this plugin still supports (its minimum is 1.8.7): the
 * newer call where the app has it, else the older one. The older calls are typed here as those apps declare them;
 * 1.13's typings mark them deprecated, which is right for 1.13 and later, where they are never reached.
 */
import { requireApiVersion, type ButtonComponent, type SliderComponent } from "obsidian";

/** ButtonComponent as the apps before 1.13 declare it. */
interface OlderButton {
  setWarning(): ButtonComponent;
}

/** SliderComponent as the apps before 1.13 declare it. */
interface OlderSlider {
  setDynamicTooltip(): SliderComponent;
}

/** Marks a button as destructive: `setDestructive` from 1.13, `setWarning` before. */
export function destructive(button: ButtonComponent): ButtonComponent {
  if (requireApiVersion("1.13.0")) return button.setDestructive();
  return (button as unknown as OlderButton).setWarning();
}

/** Shows a slider's value while it is dragged: 1.13 always shows it inline, older apps only with `setDynamicTooltip`. */
export function showSliderValue(slider: SliderComponent): SliderComponent {
  if (requireApiVersion("1.13.0")) return slider;
  return (slider as unknown as OlderSlider).setDynamicTooltip();
}
