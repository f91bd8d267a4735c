/**
 * The harness's mobile mode: Obsidian on a phone. Platform says mobile, the body carries Obsidian's `is-mobile`
 * and `is-phone` classes, there is no Node (no `process`, `require` knows only `obsidian` and the CodeMirror packages the app provides), and requestUrl goes
 * through the test runner's own fetch (`window.harnessFetch`, exposed by run.mjs), which, like Obsidian's native
 * requestUrl, is not bound by the page's CORS.
 */
import * as obsidian from "../../fakes/obsidian";

/** Obsidian's Platform on a phone app. */
export const MOBILE_PLATFORM = {
  ...obsidian.Platform,
  isDesktop: false,
  isMobile: true,
  isDesktopApp: false,
  isMobileApp: true,
  isPhone: true,
  isTablet: false,
  isLinux: false,
};

/** What run.mjs's exposed function answers. */
interface BridgedReply {
  status: number;
  headers: Record<string, string>;
  /** The body, base64 (binary-safe). */
  base64: string;
}

/** Obsidian's RequestUrlParam. */
interface RequestUrlParam {
  url: string;
  method?: string;
  contentType?: string;
  body?: string | ArrayBuffer;
  headers?: Record<string, string>;
  throw?: boolean;
}

type HarnessFetch = (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<BridgedReply>;

function bytesOf(base64: string): Uint8Array {
  const raw = atob(base64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Obsidian's requestUrl: method, headers, body and content type sent; status, headers, text, json and bytes back. */
export async function mobileRequestUrl(request: RequestUrlParam | string) {
  const r = typeof request === "string" ? { url: request } : request;
  const bridge = (window as unknown as { harnessFetch?: HarnessFetch }).harnessFetch;
  if (!bridge) throw new Error("The mobile harness needs run.mjs's harnessFetch.");
  const headers: Record<string, string> = { ...(r.headers ?? {}) };
  if (r.contentType && !Object.keys(headers).some((k) => k.toLowerCase() === "content-type")) headers["Content-Type"] = r.contentType;
  const body = r.body === undefined ? undefined : typeof r.body === "string" ? r.body : new TextDecoder().decode(r.body);
  const reply = await bridge(r.url, { method: r.method ?? "GET", headers, body });
  const bytes = bytesOf(reply.base64);
  const text = new TextDecoder().decode(bytes);
  if (r.throw !== false && reply.status >= 400) throw new Error(`Request failed, status ${reply.status}`);
  return {
    status: reply.status,
    headers: reply.headers,
    text,
    arrayBuffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    get json(): unknown {
      return JSON.parse(text);
    },
  };
}

/** The `obsidian` module as main.js sees it on the phone. */
export const mobileObsidian = { ...obsidian, Platform: MOBILE_PLATFORM, requestUrl: mobileRequestUrl };
