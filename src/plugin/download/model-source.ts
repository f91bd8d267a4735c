/** Where a model comes from: an `hf:` URI (Hugging Face) or a plain http(s) URL, turned into a URL and a file name. */

export interface ModelSource {
  /** What to download. */
  url: string;
  /** The file name to save as (always ends in .gguf). */
  fileName: string;
}

/** Thrown for an address that is neither `hf:owner/repo/file.gguf` nor an http(s) URL to a .gguf file. */
export class ModelSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ModelSourceError";
  }
}

/**
 * Accepts `hf:owner/repo/path/file.gguf` (optionally `#branch`) and `https://.../file.gguf`.
 * `hf:` maps to `https://huggingface.co/owner/repo/resolve/<branch>/path/file.gguf`.
 */
export function parseModelSource(input: string): ModelSource {
  const text = input.trim();
  if (text.startsWith("hf:")) {
    const [spec, branch = "main"] = text.slice(3).split("#");
    const parts = spec.split("/").filter(Boolean);
    if (parts.length < 3 || !parts[parts.length - 1].toLowerCase().endsWith(".gguf")) {
      throw new ModelSourceError(`"${text}" is not a model address: write it as hf:owner/repo/file.gguf.`);
    }
    const [owner, repo, ...file] = parts;
    const url = `https://huggingface.co/${owner}/${repo}/resolve/${encodeURIComponent(branch)}/${file.map(encodeURIComponent).join("/")}`;
    return { url, fileName: file[file.length - 1] };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ModelSourceError(`"${text}" is not a model address: paste an hf:owner/repo/file.gguf URI or an https:// link to a .gguf file.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new ModelSourceError(`"${text}" uses ${url.protocol}; only http and https downloads are supported.`);
  }
  const name = decodeURIComponent(url.pathname.split("/").pop() ?? "");
  if (!name.toLowerCase().endsWith(".gguf")) {
    throw new ModelSourceError(`"${text}" does not point to a .gguf file; link the model file itself.`);
  }
  return { url: url.toString(), fileName: name.replace(/[\\/:*?"<>|]/g, "_") };
}
