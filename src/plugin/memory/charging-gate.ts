/**
 * "Index only while charging": indexing waits until the device is on power, read through the Battery Status API
 * (`navigator.getBattery`, in Obsidian's Android WebView and in Electron; iOS's WebView and some desktops lack it).
 * Where the device does not report its battery, indexing runs at once and the user is told why it did not wait.
 */

/** The part of the Battery Status API's BatteryManager used here. */
export interface BatteryStatus {
  charging: boolean;
  /** 0 to 1. */
  level: number;
  addEventListener(type: "chargingchange", listener: () => void): void;
  removeEventListener(type: "chargingchange", listener: () => void): void;
}

/** `navigator.getBattery` where the platform has it, else undefined. */
export type BatteryReader = (() => Promise<BatteryStatus>) | undefined;

/** The renderer's battery reader (undefined where there is none, as on iOS). */
export function platformBattery(): BatteryReader {
  const nav = typeof window === "undefined" ? undefined : (window.navigator as { getBattery?: () => Promise<BatteryStatus> });
  return typeof nav?.getBattery === "function" ? () => nav.getBattery!() : undefined;
}

/** Why a device cannot wait for charging, in one sentence (the setting shows it too). */
export const NO_BATTERY_STATUS = "This device does not report whether it is charging, so indexing runs at once.";

export class ChargingGate {
  private readonly waiting = new Set<() => void>();

  constructor(private readonly battery: BatteryReader) {}

  /** Whether this device reports its battery at all. */
  get reported(): boolean {
    return this.battery !== undefined;
  }

  /**
   * Resolves when indexing may start: at once when the device is charging (or does not report its battery:
   * `tell` gets NO_BATTERY_STATUS), else when it is plugged in (`tell` hears once that indexing waits). Resolves
   * false when `cancel` ran first (the plugin unloaded).
   */
  async whenCharging(tell: (message: string) => void): Promise<boolean> {
    let status: BatteryStatus;
    try {
      if (!this.battery) throw new Error("no battery status");
      status = await this.battery();
    } catch {
      tell(NO_BATTERY_STATUS);
      return true;
    }
    if (status.charging) return true;
    tell(`Indexing waits until the device is charging (battery at ${Math.round(status.level * 100)}%); turn off "Index only while charging" to index now.`);
    return new Promise<boolean>((resolve) => {
      const done = (started: boolean) => {
        status.removeEventListener("chargingchange", onChange);
        this.waiting.delete(stop);
        resolve(started);
      };
      const onChange = () => {
        if (status.charging) done(true);
      };
      const stop = () => done(false);
      status.addEventListener("chargingchange", onChange);
      this.waiting.add(stop);
    });
  }

  /** Whether an index run is waiting for power. */
  get pending(): boolean {
    return this.waiting.size > 0;
  }

  /** Stops every wait (they resolve false) and drops the battery listeners. */
  cancel(): void {
    for (const stop of [...this.waiting]) stop();
  }
}
