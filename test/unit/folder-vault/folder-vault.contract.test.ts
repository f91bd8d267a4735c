import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeVaultContract } from "../../contract/vault-contract";
import { FolderVault } from "../../../src/node/folder-vault/folder-vault";

describeVaultContract("FolderVault", async () => {
  const root = await mkdtemp(join(tmpdir(), "folder-vault-"));
  const vault = new FolderVault(root, { debounceMs: 30 });
  return {
    vault,
    root,
    async cleanup() {
      vault.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});
