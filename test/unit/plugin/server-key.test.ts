/** The server API key in Obsidian's secret storage from 1.11.4, in data.json below; a plain key migrates once. */
import { afterEach, describe, expect, it } from "vitest";
import { setFakeApiVersion } from "../../fakes/api-version";
import { appSecretStorage, loadPluginSettings, SERVER_KEY_SECRET, withServerKey } from "../../../src/plugin/settings/server-key";
import { loadSettings, serverConfig } from "../../../src/plugin/settings/settings";
import { Plugin } from "../../fakes/app";
import { fakeApp } from "../../fakes/fake-app";
import { MemoryBackend } from "../../fakes/vault";

class TestPlugin extends Plugin {}

const DATA = ".obsidian/plugins/vault-agent/data.json";
const OLD_DATA = JSON.stringify({ engineKind: "openai", serverUrl: "http://127.0.0.1:1234/v1", serverApiKey: "sk-local-123" });

function setup() {
  const { app, fake } = fakeApp(new MemoryBackend({ [DATA]: OLD_DATA }));
  const plugin = new TestPlugin(fake, { id: "vault-agent", name: "Vault Agent", version: "0", minAppVersion: "1.8.7", description: "", author: "" });
  return { app, fake, plugin, dataJson: () => fake.vault.adapter.read(DATA) };
}

afterEach(() => setFakeApiVersion("1.8.7"));

describe("the server API key", () => {
  it("moves a plain key from data.json into secret storage on 1.11.4, once, and the engine still gets it", async () => {
    setFakeApiVersion("1.11.4");
    const { app, fake, plugin, dataJson } = setup();
    const secrets = appSecretStorage(app);
    expect(secrets).not.toBeNull();
    const settings = await loadPluginSettings(plugin, secrets, loadSettings);
    expect(fake.secretStorage.getSecret(SERVER_KEY_SECRET)).toBe("sk-local-123");
    expect(await dataJson()).not.toContain("sk-local-123");
    expect(settings).toMatchObject({ serverApiKey: "", serverApiKeySecret: SERVER_KEY_SECRET });
    expect(serverConfig(withServerKey(settings, secrets))?.apiKey).toBe("sk-local-123");
    // A second load finds nothing to move and leaves the file as it is.
    const saved = await dataJson();
    fake.secretStorage.setSecret(SERVER_KEY_SECRET, "sk-rotated");
    const again = await loadPluginSettings(plugin, secrets, loadSettings);
    expect(await dataJson()).toBe(saved);
    expect(serverConfig(withServerKey(again, secrets))?.apiKey).toBe("sk-rotated");
  });

  it("stays in data.json below 1.11.4", async () => {
    const { app, fake, plugin, dataJson } = setup();
    const secrets = appSecretStorage(app);
    expect(secrets).toBeNull();
    const settings = await loadPluginSettings(plugin, secrets, loadSettings);
    expect(await dataJson()).toBe(OLD_DATA);
    expect(fake.secretStorage.listSecrets()).toEqual([]);
    expect(serverConfig(withServerKey(settings, secrets))?.apiKey).toBe("sk-local-123");
  });
});
