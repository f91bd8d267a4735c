/**
 * "Index only while charging": the gate over the Battery Status API, and MemoryService waiting on it — no build
 * while on battery, one when the device is plugged in, at once (with the sentence why) where the device does not
 * report its battery, and nothing after an unload that came first.
 */
import { describe, expect, it } from "vitest";
import { ChargingGate, NO_BATTERY_STATUS, type BatteryStatus } from "../../../src/plugin/memory/charging-gate";
import { MemoryService } from "../../../src/plugin/memory/memory-service";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";
import { DEFAULT_SETTINGS, loadSettings, type VaultAgentSettings } from "../../../src/plugin/settings/settings";
import { fakeApp } from "../../fakes/fake-app";
import { MemoryBackend } from "../../fakes/vault";
import { inProcessSearchWorker } from "../../fakes/search-worker";

/** A BatteryManager whose charging state the test sets, firing `chargingchange` as the real one does. */
class FakeBattery implements BatteryStatus {
  private readonly listeners = new Set<() => void>();
  constructor(
    public charging: boolean,
    public level = 0.42,
  ) {}
  addEventListener(_type: "chargingchange", listener: () => void): void {
    this.listeners.add(listener);
  }
  removeEventListener(_type: "chargingchange", listener: () => void): void {
    this.listeners.delete(listener);
  }
  plugIn(): void {
    this.charging = true;
    for (const l of [...this.listeners]) l();
  }
  get listening(): number {
    return this.listeners.size;
  }
}

const settle = () => new Promise((r) => setTimeout(r, 20));

function memoryWith(gate: ChargingGate, settings: VaultAgentSettings): { memory: MemoryService; notices: string[] } {
  const { app } = fakeApp(new MemoryBackend({ "Garden/Tomatoes.md": "# Tomatoes\nSow tomatoes in March.", "Recipes.md": "# Soup\nLentil soup." }));
  const notices: string[] = [];
  const memory = new MemoryService({
    vault: new ObsidianVault(app),
    adapter: app.vault.adapter,
    settings: () => settings,
    defaultIndexFolder: ".obsidian/plugins/vault-agent/index",
    semantic: () => Promise.resolve(null),
    progress: () => undefined,
    notice: (m) => notices.push(m),
    charging: gate,
    searchWorker: () => inProcessSearchWorker(),
  });
  return { memory, notices };
}

describe("ChargingGate", () => {
  it("waits on battery until the device is plugged in, then drops its listener", async () => {
    const battery = new FakeBattery(false);
    const gate = new ChargingGate(() => Promise.resolve(battery));
    const told: string[] = [];
    let started: boolean | undefined;
    void gate.whenCharging((m) => told.push(m)).then((v) => (started = v));
    await settle();
    expect(started).toBeUndefined();
    expect(gate.pending).toBe(true);
    expect(told).toEqual(['Indexing waits until the device is charging (battery at 42%); turn off "Index only while charging" to index now.']);
    battery.plugIn();
    await settle();
    expect(started).toBe(true);
    expect(gate.pending).toBe(false);
    expect(battery.listening).toBe(0);
  });

  it("lets indexing run at once, with the sentence why, where the device does not report its battery", async () => {
    for (const gate of [new ChargingGate(undefined), new ChargingGate(() => Promise.reject(new Error("blocked by policy")))]) {
      const told: string[] = [];
      expect(await gate.whenCharging((m) => told.push(m))).toBe(true);
      expect(told).toEqual([NO_BATTERY_STATUS]);
    }
    expect(new ChargingGate(undefined).reported).toBe(false);
  });
});

describe("MemoryService with Index only while charging", () => {
  it("builds nothing on battery, says it waits, and indexes once the device is plugged in", async () => {
    const battery = new FakeBattery(false);
    const { memory, notices } = memoryWith(new ChargingGate(() => Promise.resolve(battery)), { ...DEFAULT_SETTINGS, indexOnlyWhileCharging: true });
    const run = memory.index(false);
    await settle();
    expect(memory.describe()).toBe("Waiting for the device to charge before indexing.");
    expect(memory.search()).toBeUndefined();
    void memory.index(false);
    expect(notices).toContain("Indexing is waiting for the device to charge.");
    battery.plugIn();
    await run;
    expect(notices.some((n) => n.startsWith("Indexed 2 notes"))).toBe(true);
    expect((await memory.search()!.textSearch("tomatoes", 3))[0]?.path).toBe("Garden/Tomatoes.md");
    await memory.close();
  });

  it("indexes at once on battery when the option is off (its default)", async () => {
    expect(loadSettings({}).indexOnlyWhileCharging).toBe(false);
    const { memory, notices } = memoryWith(new ChargingGate(() => Promise.resolve(new FakeBattery(false))), loadSettings({}));
    await memory.index(false);
    expect(notices.filter((n) => n.startsWith("Indexing waits"))).toEqual([]);
    expect(notices.some((n) => n.startsWith("Indexed 2 notes"))).toBe(true);
    await memory.close();
  });

  it("runs nothing when the plugin unloads while it waits", async () => {
    const battery = new FakeBattery(false);
    const { memory, notices } = memoryWith(new ChargingGate(() => Promise.resolve(battery)), { ...DEFAULT_SETTINGS, indexOnlyWhileCharging: true });
    const run = memory.index(false);
    await settle();
    await memory.close();
    await run;
    expect(battery.listening).toBe(0);
    expect(notices.some((n) => n.startsWith("Indexed"))).toBe(false);
    expect(memory.search()).toBeUndefined();
  });
});
