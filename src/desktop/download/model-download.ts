import { nodeModule } from "../../engine/node-builtins";

const fs = nodeModule("fs");
const http = nodeModule("http");
const https = nodeModule("https");
const path = nodeModule("path");
/**
 * Downloads a file over http(s) with progress, cancel and resume. Bytes go to `<name>.part` until the file is
 * complete and its check passes (for models: size and GGUF magic; for runtime packs: the sha256); only then is it
 * renamed to its final name, so nothing ever sees a partial file. A cancelled or interrupted download keeps its
 * `.part` file, and the next attempt resumes it with an HTTP Range request. A server that stops sending for
 * `stallMs` ends the attempt (the part is kept for a resume).
 */

export interface DownloadProgress {
  /** Bytes on disk so far (including a resumed part). */
  received: number;
  /** Total bytes, when the server said. */
  total?: number;
  /** Bytes this attempt started from (0 unless resumed). */
  resumedFrom: number;
}

export interface DownloadOptions {
  url: string;
  /** Final file path (ends in .gguf). */
  destination: string;
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** Free bytes on the destination's disk; default asks the file system. Injectable for tests. */
  freeBytes?: (folder: string) => Promise<number>;
  /** Redirects followed before giving up; default 5. */
  maxRedirects?: number;
  /** Milliseconds without a byte before the attempt is given up as stalled; default 30 s. */
  stallMs?: number;
}

/** A generic download: what the file is called in messages, and how a complete part file is checked. */
export interface FileDownloadOptions extends DownloadOptions {
  /** Name used in messages. */
  label?: string;
  /** Checks the complete part file; a DownloadError rejects it (the part is removed). Default: no check. */
  check?: (part: string) => Promise<DownloadError | null>;
  /** Replace an existing destination instead of refusing. */
  overwrite?: boolean;
  /** Size the server must report, when known in advance (a runtime pack's bytes). */
  expectedBytes?: number;
}

export type DownloadErrorCode = "http" | "cancelled" | "truncated" | "disk_full" | "not_gguf" | "network" | "exists" | "stalled" | "checksum";

/** A failed download with one sentence the user can act on. */
export class DownloadError extends Error {
  constructor(
    message: string,
    /** Machine-readable kind. */
    readonly code: DownloadErrorCode,
  ) {
    super(message);
    this.name = "DownloadError";
  }
}

/** The partial file a download writes to. */
export function partPath(destination: string): string {
  return `${destination}.part`;
}

/** Free bytes available to this user on the disk holding `folder`. */
export async function freeDiskBytes(folder: string): Promise<number> {
  const stats = await fs.promises.statfs(folder);
  return stats.bavail * stats.bsize;
}

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(n / 1024))} KB`;
}

/** Resolves with the destination path once the complete, checked model file is in place. */
export async function downloadModel(options: DownloadOptions): Promise<string> {
  const { destination } = options;
  if (fs.existsSync(destination)) throw new DownloadError(`${path.basename(destination)} is already downloaded; choose it in the model picker.`, "exists");
  return downloadFile({
    ...options,
    check: async (part) =>
      (await hasGgufMagic(part))
        ? null
        : new DownloadError(`${path.basename(destination)} is not a GGUF model file; check that the address points to a .gguf file.`, "not_gguf"),
  });
}

/** Resolves with the destination path once the complete file has passed `check` and is in place. */
export async function downloadFile(options: FileDownloadOptions): Promise<string> {
  const { destination } = options;
  const label = options.label ?? path.basename(destination);
  if (!options.overwrite && fs.existsSync(destination)) throw new DownloadError(`${label} is already downloaded.`, "exists");
  await fs.promises.mkdir(path.dirname(destination), { recursive: true });
  const part = partPath(destination);
  let offset = fs.existsSync(part) ? (await fs.promises.stat(part)).size : 0;
  if (options.expectedBytes !== undefined && offset > options.expectedBytes) {
    // A part longer than the file can be cannot be resumed: start over.
    await fs.promises.rm(part, { force: true });
    offset = 0;
  }
  const stallMs = options.stallMs ?? 30_000;
  const response = await openResponse(options.url, offset, options.signal, options.maxRedirects ?? 5, stallMs);

  // 206 continues the part file; 200 means the server ignored the range, so start over.
  const resumed = response.statusCode === 206 ? offset : 0;
  const total = totalSize(response, resumed);
  const needed = total !== undefined ? total - resumed : 0;
  const free = await (options.freeBytes ?? freeDiskBytes)(path.dirname(destination));
  if (needed > free) {
    response.destroy();
    throw new DownloadError(
      `Not enough free disk space for ${label}: it needs ${formatBytes(needed)} and ${formatBytes(free)} is free; free some space and try again.`,
      "disk_full",
    );
  }

  const received = await writeBody(response, part, resumed, total, { ...options, stallMs, label });
  if (total !== undefined && received !== total) {
    throw new DownloadError(`The download of ${label} ended early (${formatBytes(received)} of ${formatBytes(total)}); try again to resume it.`, "truncated");
  }
  const problem = options.check ? await options.check(part) : null;
  if (problem) {
    await fs.promises.rm(part, { force: true });
    throw problem;
  }
  if (options.overwrite) await fs.promises.rm(destination, { force: true });
  await fs.promises.rename(part, destination);
  return destination;
}

function totalSize(response: import("http").IncomingMessage, resumed: number): number | undefined {
  const range = /\/(\d+)\s*$/.exec(response.headers["content-range"] ?? "");
  if (range) return Number(range[1]);
  const length = Number(response.headers["content-length"]);
  return Number.isFinite(length) && response.headers["content-length"] !== undefined ? length + resumed : undefined;
}

/** GETs the URL (following redirects) and resolves with a 200/206 response; other statuses reject. */
function openResponse(url: string, offset: number, signal: AbortSignal | undefined, redirectsLeft: number, stallMs: number): Promise<import("http").IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return reject(new DownloadError(`"${url}" is not a valid address.`, "http"));
    }
    const client = target.protocol === "http:" ? http : https;
    const headers: Record<string, string> = { "User-Agent": "vault-agent" };
    if (offset > 0) headers.Range = `bytes=${offset}-`;
    const request = client.get(target, { headers }, (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume();
        signal?.removeEventListener("abort", onAbort);
        if (redirectsLeft <= 0) return reject(new DownloadError(`Too many redirects while downloading ${url}.`, "http"));
        return resolve(openResponse(new URL(response.headers.location, target).toString(), offset, signal, redirectsLeft - 1, stallMs));
      }
      if (status === 416 && offset > 0) {
        // The part file already holds every byte (or more): let the size check decide.
        response.resume();
        signal?.removeEventListener("abort", onAbort);
        return resolve(openResponse(url, 0, signal, redirectsLeft, stallMs));
      }
      if (status !== 200 && status !== 206) {
        response.resume();
        signal?.removeEventListener("abort", onAbort);
        return reject(new DownloadError(`The server answered ${status} ${response.statusMessage ?? ""} for ${url}; check the address, or try again later.`.replace(/ +;/, ";"), "http"));
      }
      signal?.removeEventListener("abort", onAbort);
      request.setTimeout(0);
      resolve(response);
    });
    // No answer at all within the stall time: give up this attempt.
    request.setTimeout(stallMs, () => {
      signal?.removeEventListener("abort", onAbort);
      request.destroy();
      reject(stalled(target.host, stallMs));
    });
    const onAbort = () => {
      request.destroy();
      reject(cancelled());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      signal?.removeEventListener("abort", onAbort);
      reject(signal?.aborted ? cancelled() : new DownloadError(`Could not reach ${target.host}: ${error.message}. Check your connection and try again.`, "network"));
    });
  });
}

function stalled(host: string, ms: number): DownloadError {
  return new DownloadError(`${host} stopped sending data for ${Math.round(ms / 1000)} seconds; try again later to resume the download.`, "stalled");
}

function cancelled(): DownloadError {
  return new DownloadError("The download was cancelled; start it again to resume where it stopped.", "cancelled");
}

/** Streams the body into the part file; resolves with the bytes on disk when the body ends or breaks off. */
function writeBody(
  response: import("http").IncomingMessage,
  part: string,
  resumed: number,
  total: number | undefined,
  options: DownloadOptions & { stallMs: number; label: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const out = fs.createWriteStream(part, { flags: resumed > 0 ? "a" : "w" });
    let received = resumed;
    let settled = false;
    let lastReport = 0;
    let stallTimer: ReturnType<typeof setTimeout> | null = null;
    const armStall = () => {
      if (stallTimer) clearTimeout(stallTimer);
      stallTimer = setTimeout(() => {
        finish(stalled(new URL(options.url).host, options.stallMs));
        response.destroy();
      }, options.stallMs);
    };
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (stallTimer) clearTimeout(stallTimer);
      options.signal?.removeEventListener("abort", onAbort);
      out.end(() => {
        options.onProgress?.({ received, total, resumedFrom: resumed });
        if (error) reject(error);
        else resolve(received);
      });
    };
    const onAbort = () => {
      // Settle first: destroying the response can emit "close" synchronously.
      finish(cancelled());
      response.destroy();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    options.onProgress?.({ received, total, resumedFrom: resumed });
    armStall();
    response.on("data", (chunk: Buffer) => {
      if (settled) return;
      armStall();
      received += chunk.length;
      if (!out.write(chunk)) {
        response.pause();
        out.once("drain", () => response.resume());
      }
      const now = Date.now();
      if (now - lastReport > 100) {
        lastReport = now;
        options.onProgress?.({ received, total, resumedFrom: resumed });
      }
    });
    response.on("end", () => finish());
    // A connection that breaks off mid-body: keep what arrived for the next attempt; the size check reports it.
    response.on("aborted", () => finish());
    response.on("error", () => finish());
    response.on("close", () => finish());
    out.on("error", (error: NodeJS.ErrnoException) => {
      response.destroy();
      if (error.code === "ENOSPC") finish(new DownloadError(`The disk is full: ${options.label} could not be written to ${path.dirname(part)}; free some space and try again.`, "disk_full"));
      else finish(new DownloadError(`Could not write ${part}: ${error.message}.`, "network"));
    });
  });
}

async function hasGgufMagic(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, "r");
  try {
    const buffer = Buffer.alloc(4);
    const { bytesRead } = await handle.read(buffer, 0, 4, 0);
    return bytesRead === 4 && buffer.toString("latin1") === "GGUF";
  } finally {
    await handle.close();
  }
}
