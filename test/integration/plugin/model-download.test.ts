import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as http from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { testModelPath } from "../../helpers/test-model";
import { DownloadError, downloadModel, partPath, type DownloadProgress } from "../../../src/desktop/download/model-download";
import { listModels } from "../../../src/plugin/models/model-library";

/** A local server over the generated GGUF with switches for the failures a real download meets. */
interface Behaviour {
  /** Stop the body after this many bytes and drop the connection. */
  cutAfter?: number;
  /** Send the body slowly (bytes per 10 ms tick) so a cancel lands mid-way. */
  slowBytesPerTick?: number;
  /** Ignore Range headers (answer 200 with the whole file). */
  ignoreRange?: boolean;
}

let model: Buffer;
let server: http.Server;
let base: string;
let behaviour: Behaviour = {};
const rangesSeen: (string | undefined)[] = [];

beforeAll(async () => {
  model = readFileSync(await testModelPath());
  server = http.createServer((req, res) => {
    rangesSeen.push(req.headers.range);
    if (req.url === "/redirect/model.gguf") {
      res.writeHead(302, { Location: "/models/model.gguf" });
      return res.end();
    }
    if (req.url === "/models/not-a-model.gguf") {
      const junk = Buffer.from("<html>not found page pretending to be a model</html>");
      res.writeHead(200, { "Content-Length": junk.length });
      return res.end(junk);
    }
    if (req.url !== "/models/model.gguf") {
      res.writeHead(404, "Not Found");
      return res.end("missing");
    }
    let start = 0;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    if (range && !behaviour.ignoreRange) {
      start = Number(range[1]);
      res.writeHead(206, { "Content-Length": model.length - start, "Content-Range": `bytes ${start}-${model.length - 1}/${model.length}` });
    } else res.writeHead(200, { "Content-Length": model.length });
    const body = model.subarray(start);
    if (behaviour.cutAfter !== undefined) {
      res.write(body.subarray(0, behaviour.cutAfter));
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    if (behaviour.slowBytesPerTick) {
      let sent = 0;
      const step = behaviour.slowBytesPerTick;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(body.subarray(sent, sent + step));
        sent += step;
        if (sent >= body.length) {
          clearInterval(timer);
          res.end();
        }
      }, 10);
      res.on("close", () => clearInterval(timer));
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

let folder: string;
beforeEach(() => {
  behaviour = {};
  rangesSeen.length = 0;
  folder = mkdtempSync(join(tmpdir(), "model-download-"));
  return () => rmSync(folder, { recursive: true, force: true });
});

const plenty = async () => 1e12;

async function failure(p: Promise<unknown>): Promise<DownloadError> {
  try {
    await p;
  } catch (error) {
    expect(error).toBeInstanceOf(DownloadError);
    return error as DownloadError;
  }
  throw new Error("expected the download to fail");
}

async function pickerNames(): Promise<string[]> {
  return (await listModels([{ path: folder, source: "plugin" }])).map((m) => m.fileName);
}

describe("model download from a local server", () => {
  it("downloads the model with progress events that end at the full size, and the picker lists it with header facts", async () => {
    const events: DownloadProgress[] = [];
    const dest = join(folder, "model.gguf");
    await downloadModel({ url: `${base}/models/model.gguf`, destination: dest, freeBytes: plenty, onProgress: (p) => events.push(p) });
    expect(readFileSync(dest).equals(model)).toBe(true);
    expect(existsSync(partPath(dest))).toBe(false);
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events[events.length - 1]).toMatchObject({ received: model.length, total: model.length });
    for (let i = 1; i < events.length; i++) expect(events[i].received).toBeGreaterThanOrEqual(events[i - 1].received);
    const [entry] = await listModels([{ path: folder, source: "plugin" }]);
    expect(entry.info?.architecture).toBe("llama");
    expect(entry.info?.fileSizeBytes).toBe(model.length);
  });

  it("follows redirects", async () => {
    const dest = join(folder, "model.gguf");
    await downloadModel({ url: `${base}/redirect/model.gguf`, destination: dest, freeBytes: plenty });
    expect(statSync(dest).size).toBe(model.length);
  });

  it("a 404 gives a clear error naming the status and leaves no file behind", async () => {
    const dest = join(folder, "missing.gguf");
    const error = await failure(downloadModel({ url: `${base}/models/missing.gguf`, destination: dest, freeBytes: plenty }));
    expect(error.code).toBe("http");
    expect(error.message).toMatch(/404/);
    expect(error.message).toMatch(/check the address/);
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(partPath(dest))).toBe(false);
    expect(await pickerNames()).toEqual([]);
  });

  it("a truncated body gives a clear error, keeps no model in the picker, and the next attempt resumes with a Range request", async () => {
    const dest = join(folder, "model.gguf");
    behaviour = { cutAfter: 10_000 };
    const error = await failure(downloadModel({ url: `${base}/models/model.gguf`, destination: dest, freeBytes: plenty }));
    expect(error.code).toBe("truncated");
    expect(error.message).toMatch(/ended early .* try again to resume/);
    expect(existsSync(dest)).toBe(false);
    expect(statSync(partPath(dest)).size).toBe(10_000);
    expect(await pickerNames()).toEqual([]);

    behaviour = {};
    const events: DownloadProgress[] = [];
    await downloadModel({ url: `${base}/models/model.gguf`, destination: dest, freeBytes: plenty, onProgress: (p) => events.push(p) });
    expect(rangesSeen[rangesSeen.length - 1]).toBe("bytes=10000-");
    expect(events[0].resumedFrom).toBe(10_000);
    expect(readFileSync(dest).equals(model)).toBe(true);
    expect(await pickerNames()).toEqual(["model.gguf"]);
  });

  it("restarts from zero when the server ignores the range", async () => {
    const dest = join(folder, "model.gguf");
    writeFileSync(partPath(dest), model.subarray(0, 5000));
    behaviour = { ignoreRange: true };
    await downloadModel({ url: `${base}/models/model.gguf`, destination: dest, freeBytes: plenty });
    expect(readFileSync(dest).equals(model)).toBe(true);
  });

  it("cancel stops mid-download, keeps the part for resume, and lists nothing", async () => {
    const dest = join(folder, "model.gguf");
    behaviour = { slowBytesPerTick: 4096 };
    const controller = new AbortController();
    const p = downloadModel({
      url: `${base}/models/model.gguf`,
      destination: dest,
      freeBytes: plenty,
      signal: controller.signal,
      onProgress: (e) => {
        if (e.received > 20_000) controller.abort();
      },
    });
    const error = await failure(p);
    expect(error.code).toBe("cancelled");
    expect(existsSync(dest)).toBe(false);
    const partial = statSync(partPath(dest)).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(model.length);
    expect(await pickerNames()).toEqual([]);

    behaviour = {};
    await downloadModel({ url: `${base}/models/model.gguf`, destination: dest, freeBytes: plenty });
    expect(rangesSeen[rangesSeen.length - 1]).toBe(`bytes=${partial}-`);
    expect(readFileSync(dest).equals(model)).toBe(true);
  });

  it("refuses to start when the disk lacks space for the model and says how much is needed", async () => {
    const dest = join(folder, "model.gguf");
    const error = await failure(downloadModel({ url: `${base}/models/model.gguf`, destination: dest, freeBytes: async () => 1000 }));
    expect(error.code).toBe("disk_full");
    expect(error.message).toMatch(/needs .* free some space/);
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(partPath(dest))).toBe(false);
  });

  it("checks free space on the real disk by default", async () => {
    const dest = join(folder, "model.gguf");
    await downloadModel({ url: `${base}/models/model.gguf`, destination: dest });
    expect(existsSync(dest)).toBe(true);
  });

  it("a body that is not a GGUF is rejected and removed", async () => {
    const dest = join(folder, "not-a-model.gguf");
    const error = await failure(downloadModel({ url: `${base}/models/not-a-model.gguf`, destination: dest, freeBytes: plenty }));
    expect(error.code).toBe("not_gguf");
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(partPath(dest))).toBe(false);
  });

  it("an unreachable server gives a network error", async () => {
    const dest = join(folder, "model.gguf");
    const error = await failure(downloadModel({ url: "http://127.0.0.1:1/models/model.gguf", destination: dest, freeBytes: plenty }));
    expect(error.code).toBe("network");
    expect(error.message).toMatch(/Could not reach 127\.0\.0\.1:1/);
  });
});
