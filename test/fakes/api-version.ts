/** The fake app's API version: 1.8.7 (the plugin's minimum) unless a test raises it to try newer APIs. */
export let apiVersion = "1.8.7";

/** Sets the version `apiVersion` and `requireApiVersion` answer with; tests reset it after use. */
export function setFakeApiVersion(version: string): void {
  apiVersion = version;
}

function parts(version: string): number[] {
  return version.split(".").map((p) => Number.parseInt(p, 10) || 0);
}

/** True when the app is at least `version`, as Obsidian's requireApiVersion. */
export function requireApiVersion(version: string): boolean {
  const have = parts(apiVersion);
  const want = parts(version);
  for (let i = 0; i < Math.max(have.length, want.length); i++) {
    const d = (have[i] ?? 0) - (want[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** Obsidian's SecretStorage (1.11.4): named secrets kept outside the vault; here, in memory. */
export class SecretStorage {
  private readonly secrets = new Map<string, string>();
  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }
  setSecret(id: string, secret: string): void {
    if (!/^[a-z0-9-]+$/.test(id)) throw new Error("Secret ids use lowercase letters, digits and dashes.");
    this.secrets.set(id, secret);
  }
  listSecrets(): string[] {
    return [...this.secrets.keys()];
  }
}
