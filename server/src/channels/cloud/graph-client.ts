import type { ChannelTemplate, MediaPayload } from "../driver.js";
import { CloudError, graphError, unreachable } from "./errors.js";

/** What a Cloud API connection addresses the Graph API with. */
export type GraphCredentials = { phoneNumberId: string; businessAccountId: string; accessToken: string };

export type GraphClientOptions = {
  /** config.graphApiUrl, without a trailing slash. */
  baseUrl: string;
  /** Each call, answer included, ends after this long. */
  timeoutMs?: number;
  /** A file's upload or download, which may weigh megabytes, ends after this long. */
  mediaTimeoutMs?: number;
  /** The most a JSON answer may weigh (Meta's are a few kilobytes; a listing page more). */
  maxJsonBytes?: number;
  /** The most a downloaded media file may weigh (config.maxUploadBytes). */
  maxMediaBytes?: number;
  /**
   * Waits before trying a call again that Meta refused for throughput (130429, 131056: per second or
   * per customer); one entry per extra try. Meta took nothing, so a retried send is never doubled.
   */
  rateLimitWaitsMs?: number[];
};

export const GRAPH_TIMEOUT_MS = 15_000;
export const GRAPH_MEDIA_TIMEOUT_MS = 120_000;
const MAX_JSON_BYTES = 1024 * 1024;
/** Templates are listed 100 a page; past this many pages the rest is left out (logged by the caller). */
export const TEMPLATE_PAGES_MAX = 20;
const RETRIED_RATE_LIMITS = new Set([130429, 131056]);

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * The Graph API calls a Cloud API connection makes: every one bounded in time and in the bytes it
 * reads, every refusal a CloudError with the catalogue's code. The access token goes only to the
 * configured base URL and to the media URLs Meta answers with.
 */
export class GraphClient {
  private readonly timeoutMs: number;
  private readonly mediaTimeoutMs: number;
  private readonly maxJsonBytes: number;
  private readonly maxMediaBytes: number;
  private readonly rateLimitWaitsMs: number[];

  constructor(
    private readonly creds: GraphCredentials,
    private readonly opts: GraphClientOptions,
  ) {
    this.timeoutMs = opts.timeoutMs ?? GRAPH_TIMEOUT_MS;
    this.mediaTimeoutMs = opts.mediaTimeoutMs ?? Math.max(this.timeoutMs, GRAPH_MEDIA_TIMEOUT_MS);
    this.maxJsonBytes = opts.maxJsonBytes ?? MAX_JSON_BYTES;
    this.maxMediaBytes = opts.maxMediaBytes ?? 100 * 1024 * 1024;
    this.rateLimitWaitsMs = opts.rateLimitWaitsMs ?? [1_000, 3_000];
  }

  private url(path: string): string {
    return `${this.opts.baseUrl}/${path}`;
  }

  /** A call answered, bytes read within the limit; a network failure or time-out as a CloudError. */
  private async call(
    url: string,
    init: RequestInit,
    maxBytes: number,
    timeoutMs = this.timeoutMs,
  ): Promise<{ res: Response; body: Buffer }> {
    try {
      const res = await fetch(url, {
        ...init,
        headers: { authorization: `Bearer ${this.creds.accessToken}`, ...(init.headers as Record<string, string>) },
        // Graph calls answer in place; a media URL may send on to Meta's CDN (fetch drops the bearer across origins)
        redirect: init.redirect ?? "error",
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { res, body: await readBounded(res, maxBytes) };
    } catch (err) {
      if (err instanceof CloudError) throw err;
      throw unreachable(err, timeoutMs);
    }
  }

  /** A JSON call; Meta's error answers thrown, throughput refusals tried again after a wait. */
  private async json(url: string, init: RequestInit = {}, timeoutMs = this.timeoutMs): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const { res, body } = await this.call(url, init, this.maxJsonBytes, timeoutMs);
      let parsed: unknown = null;
      try {
        parsed = body.length ? JSON.parse(body.toString("utf8")) : null;
      } catch {
        // not JSON: a proxy's page, judged by its status below
      }
      if (res.ok && parsed && typeof parsed === "object") return obj(parsed);
      const error = res.ok
        ? new CloudError("ERR_CLOUD_API", `unreadable answer (HTTP ${res.status})`, null, res.status)
        : graphError(res.status, parsed);
      const wait = this.rateLimitWaitsMs[attempt];
      if (wait === undefined || error.graphCode === null || !RETRIED_RATE_LIMITS.has(error.graphCode)) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private post(path: string, payload: unknown): Promise<Json> {
    return this.json(this.url(path), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(payload),
    });
  }

  /** POST /{phone-number-id}/messages: the message's wamid. */
  async sendMessage(payload: Json): Promise<string> {
    const answer = await this.post(`${this.creds.phoneNumberId}/messages`, {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      ...payload,
    });
    const id = str(obj((answer.messages as unknown[] | undefined)?.[0]).id);
    if (!id) throw new CloudError("ERR_CLOUD_API", "the Graph API answered a send without a message id");
    return id;
  }

  /** The customer's phone shows the message (and the ones before it) read. */
  async markRead(messageId: string): Promise<void> {
    await this.post(`${this.creds.phoneNumberId}/messages`, {
      messaging_product: "whatsapp",
      status: "read",
      message_id: messageId,
    });
  }

  /** POST /{phone-number-id}/media (multipart): the uploaded file's media id. */
  async uploadMedia(media: MediaPayload, mimetype: string): Promise<string> {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", mimetype);
    form.set("file", new Blob([new Uint8Array(media.data)], { type: mimetype }), media.fileName || "file");
    const answer = await this.json(
      this.url(`${this.creds.phoneNumberId}/media`),
      { method: "POST", body: form },
      this.mediaTimeoutMs,
    );
    const id = str(answer.id);
    if (!id) throw new CloudError("ERR_CLOUD_MEDIA", "the Graph API answered an upload without a media id");
    return id;
  }

  /** A received file: GET /{media-id} for its URL, then the bytes from there (bearer again, as Meta asks). */
  async downloadMedia(mediaId: string): Promise<MediaPayload> {
    if (!/^[\w.-]{1,100}$/.test(mediaId)) throw new CloudError("ERR_WAPP_DOWNLOAD_MEDIA", "invalid media id");
    const info = await this.json(this.url(encodeURIComponent(mediaId)));
    const url = str(info.url);
    const mimetype = str(info.mime_type) || "application/octet-stream";
    if (!/^https?:\/\//i.test(url)) throw new CloudError("ERR_WAPP_DOWNLOAD_MEDIA", "the Graph API gave no media URL");
    const size = Number(info.file_size);
    if (Number.isFinite(size) && size > this.maxMediaBytes)
      throw new CloudError("ERR_WAPP_DOWNLOAD_MEDIA", `the file weighs ${size} bytes, over the ${this.maxMediaBytes} allowed`);
    const { res, body } = await this.call(url, { redirect: "follow" }, this.maxMediaBytes, this.mediaTimeoutMs);
    if (!res.ok) throw new CloudError("ERR_WAPP_DOWNLOAD_MEDIA", `media download answered HTTP ${res.status}`, null, res.status);
    return { data: body, mimetype, fileName: mediaId };
  }

  /**
   * The business account's templates, every page up to TEMPLATE_PAGES_MAX. Pages are asked by their
   * cursor at the configured base URL, never at whatever `next` names, so the token goes nowhere else.
   */
  async templates(): Promise<{ templates: ChannelTemplate[]; complete: boolean }> {
    const out: ChannelTemplate[] = [];
    let after = "";
    for (let page = 0; page < TEMPLATE_PAGES_MAX; page++) {
      const query = new URLSearchParams({ limit: "100", fields: "name,language,status,category,components" });
      if (after) query.set("after", after);
      const answer = await this.json(this.url(`${this.creds.businessAccountId}/message_templates?${query}`));
      for (const t of Array.isArray(answer.data) ? answer.data : []) {
        const row = obj(t);
        const name = str(row.name);
        if (!name) continue;
        out.push({
          name,
          language: str(row.language),
          status: str(row.status),
          category: str(row.category),
          components: Array.isArray(row.components) ? row.components : [],
        });
      }
      const paging = obj(answer.paging);
      const next = str(obj(paging.cursors).after);
      if (!paging.next || !next || next === after) return { templates: out, complete: true };
      after = next;
    }
    return { templates: out, complete: false };
  }

  /** GET /{phone-number-id}: proves the token and the number; its display number and verified name. */
  async phoneNumber(): Promise<{ number: string; name: string }> {
    const query = new URLSearchParams({ fields: "display_phone_number,verified_name" });
    const answer = await this.json(this.url(`${encodeURIComponent(this.creds.phoneNumberId)}?${query}`));
    return { number: str(answer.display_phone_number).replace(/\D/g, ""), name: str(answer.verified_name) };
  }
}

/** The answer's bytes, the call refused once they pass `max` (a hostile or broken server cannot fill memory). */
async function readBounded(res: Response, max: number): Promise<Buffer> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel().catch(() => undefined);
    throw new CloudError("ERR_CLOUD_API", `the Graph API's answer is larger than ${max} bytes`, null, res.status);
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      throw new CloudError("ERR_CLOUD_API", `the Graph API's answer is larger than ${max} bytes`, null, res.status);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}
