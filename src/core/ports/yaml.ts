/** The host's YAML: Obsidian's parseYaml/stringifyYaml in the plugin, the `yaml` package headless (core bundles none). */
export interface YamlPort {
  /** Throws on text that is not YAML. */
  parse(text: string): unknown;
  stringify(value: unknown): string;
}
