import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeVaultContract } from "../../contract/vault-contract";
import { fakeApp } from "../../fakes/fake-app";
import { FolderBackend } from "../../fakes/folder-backend";
import { ObsidianVault } from "../../../src/plugin/vault/obsidian-vault";

describeVaultContract("ObsidianVault", async () => {
  const root = await mkdtemp(join(tmpdir(), "obsidian-vault-"));
  const { app } = fakeApp(new FolderBackend(root));
  const vault = new ObsidianVault(app);
  return {
    vault,
    root,
    async addBinary(path: string, bytes: Uint8Array) {
      const folder = path.split("/").slice(0, -1).join("/");
      if (folder && !app.vault.getFolderByPath(folder)) await app.vault.createFolder(folder);
      await app.vault.createBinary(path, bytes.slice().buffer);
    },
    async cleanup() {
      await rm(root, { recursive: true, force: true });
    },
  };
});
