// `npm version X`: copies package.json's new version into manifest.json and adds it to versions.json with the
// current minAppVersion (as Obsidian's sample plugin does), so a release tag, manifest and versions agree.
import { readFileSync, writeFileSync } from "node:fs";

const targetVersion = process.env.npm_package_version;
if (!targetVersion) {
  console.error("Run this through `npm version <version>`, which sets npm_package_version.");
  process.exit(1);
}
const manifest = JSON.parse(readFileSync("manifest.json", "utf8"));
manifest.version = targetVersion;
writeFileSync("manifest.json", JSON.stringify(manifest, null, 2) + "\n");
const versions = JSON.parse(readFileSync("versions.json", "utf8"));
versions[targetVersion] = manifest.minAppVersion;
writeFileSync("versions.json", JSON.stringify(versions, null, 2) + "\n");
