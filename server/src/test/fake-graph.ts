import { createHash, randomBytes } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for Meta's Graph API as the WhatsApp Cloud API uses it (issue 31): sends and read
 * marks, media upload and download, the business account's templates (paged), the phone number's
 * probe, and Meta's error bodies. Node builtins only, so e2e/ and faults/ import it by relative path.
 */

/** A template as the fake lists it (Meta's `message_templates` entries). */
export type FakeTemplate = {
  name: string;
  language: string;
  status?: string;
  category?: string;
  components?: unknown[];
};

/** A JSON body POSTed to `/{phoneNumberId}/messages`: a send (`to`, `type`, …) or a read mark (`status: "read"`). */
export type GraphSend = {
  messaging_product?: string;
  recipient_type?: string;
  to?: string;
  type?: string;
  status?: string;
  message_id?: string;
  context?: { message_id?: string };
  text?: { body?: string; preview_url?: boolean };
  template?: { name?: string; language?: { code?: string }; components?: unknown[] };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: unknown[];
  /** The wamid the fake answered this send with (absent for read marks). */
  answeredId?: string;
  [media: string]: unknown;
};

export type FakeGraphError = { code: number; message?: string; error_subcode?: number; type?: string; details?: string };
export type GraphRequestSeen = { method: string; path: string; query: string; authorization?: string };

export type FakeGraph = {
  /** The app's GRAPH_API_URL, e.g. http://127.0.0.1:PORT/v21.0 */
  baseUrl: string;
  accessToken: string;
  phoneNumberId: string;
  businessAccountId: string;
  displayPhoneNumber: string;
  /** Every POST …/messages body the fake accepted (sends and read marks), in order; refused ones are not. */
  sent(): GraphSend[];
  uploads(): { type: string; fileName: string; bytes: number; mime: string; id: string }[];
  /** Served to GET /{id} and the url it answers with; uploads are served the same way. */
  addMedia(id: string, data: Buffer, mime: string): void;
  setTemplates(t: FakeTemplate[]): void;
  /** The next `times` (default 1) Graph calls answer this error (media downloads aside). */
  failNext(status: number, error: FakeGraphError, times?: number): void;
  /** The next `times` Graph calls never answer (the client's time-out is what ends them). */
  hangNext(times?: number): void;
  /** The next `times` Graph calls answer a body of `bytes` bytes (a client must bound what it reads). */
  hugeNext(bytes: number, times?: number): void;
  requests: GraphRequestSeen[];
  close(): Promise<void>;
};

export type FakeGraphOptions = {
  accessToken?: string;
  phoneNumberId?: string;
  businessAccountId?: string;
  displayPhoneNumber?: string;
  verifiedName?: string;
  templates?: FakeTemplate[];
  /** Templates per page when the caller asks for more (Meta pages at `limit`); small to exercise paging. */
  pageSize?: number;
};

const VERSION = "v21.0";
const MAX_BODY = 32 * 1024 * 1024;

/** Meta's example template, approved, with one body parameter. */
export const exampleTemplates = (): FakeTemplate[] => [
  {
    name: "hello_world",
    language: "en_US",
    status: "APPROVED",
    category: "UTILITY",
    components: [
      { type: "HEADER", format: "TEXT", text: "Hello World" },
      {
        type: "BODY",
        text: "Welcome and congratulations!! This message demonstrates your ability to send a WhatsApp message notification from the Cloud API, hosted by Meta.",
      },
      { type: "FOOTER", text: "WhatsApp Business Platform sample message" },
    ],
  },
  {
    name: "seguimiento",
    language: "es",
    status: "APPROVED",
    category: "UTILITY",
    components: [{ type: "BODY", text: "Hola {{1}}, seguimos con tu consulta {{2}}." }],
  },
];

const digits = (n: number) =>
  Array.from({ length: n }, () => Math.floor(Math.random() * 10))
    .join("")
    .replace(/^0/, "1");

function wamid(): string {
  return `wamid.${Buffer.from(`HBgL${randomBytes(24).toString("hex").toUpperCase()}`).toString("base64")}`;
}

/** The first part of a multipart body named `name`: its bytes, file name and declared type. */
function multipartPart(body: Buffer, contentType: string, name: string) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const b = boundary?.[1] ?? boundary?.[2];
  if (!b) return null;
  const delimiter = Buffer.from(`--${b.trim()}`);
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const part = body.subarray(start, next);
    const headerEnd = part.indexOf("\r\n\r\n");
    if (headerEnd >= 0) {
      const headers = part.subarray(0, headerEnd).toString("utf8");
      const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? "";
      if (new RegExp(`name="${name}"`).test(disposition)) {
        // the part's data ends before the CRLF that precedes the next delimiter
        const data = part.subarray(headerEnd + 4, part.length - 2);
        return {
          data,
          fileName: /filename="([^"]*)"/.exec(disposition)?.[1] ?? "",
          type: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? "",
        };
      }
    }
    at = next;
  }
  return null;
}

export async function startFakeGraph(opts: FakeGraphOptions = {}): Promise<FakeGraph> {
  const accessToken = opts.accessToken ?? `EAAG${randomBytes(24).toString("hex")}`;
  const phoneNumberId = opts.phoneNumberId ?? digits(15);
  const businessAccountId = opts.businessAccountId ?? digits(15);
  const displayPhoneNumber = opts.displayPhoneNumber ?? "+1 555-010-0199";
  const verifiedName = opts.verifiedName ?? "Charla Test";
  const pageSize = opts.pageSize ?? 25;
  let templates = opts.templates ?? exampleTemplates();
  const sends: GraphSend[] = [];
  const uploads: { type: string; fileName: string; bytes: number; mime: string; id: string }[] = [];
  const media = new Map<string, { data: Buffer; mime: string }>();
  const failures: { status: number; error: FakeGraphError }[] = [];
  const oddities: ("hang" | { huge: number })[] = [];
  const hanging: ServerResponse[] = [];
  const requests: GraphRequestSeen[] = [];
  let origin = "";

  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const graphError = (res: ServerResponse, status: number, e: FakeGraphError) =>
    json(res, status, {
      error: {
        message: e.message ?? `(#${e.code}) error`,
        type: e.type ?? "OAuthException",
        code: e.code,
        ...(e.error_subcode !== undefined ? { error_subcode: e.error_subcode } : {}),
        ...(e.details ? { error_data: { messaging_product: "whatsapp", details: e.details } } : {}),
        fbtrace_id: randomBytes(8).toString("base64url"),
      },
    });
  const missing = (res: ServerResponse, id: string) =>
    graphError(res, 400, {
      code: 100,
      error_subcode: 33,
      type: "GraphMethodException",
      message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", origin);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > MAX_BODY) return graphError(res, 413, { code: 100, message: "Request too large" });
      chunks.push(c as Buffer);
    }
    const body = Buffer.concat(chunks);
    const authorization = req.headers.authorization;
    requests.push({ method: req.method ?? "", path: url.pathname, query: url.search, authorization });
    const authorized = authorization === `Bearer ${accessToken}`;

    // media download: the url GET /{mediaId} answered; the bearer is required as on Meta's CDN
    const download = /^\/media-download\/([^/]+)$/.exec(url.pathname);
    if (download) {
      const m = media.get(decodeURIComponent(download[1]));
      if (!authorized) return res.writeHead(401).end();
      if (!m) return res.writeHead(404).end();
      return res.writeHead(200, { "content-type": m.mime, "content-length": m.data.length }).end(m.data);
    }

    const failure = failures.shift();
    if (failure) return graphError(res, failure.status, failure.error);
    const odd = oddities.shift();
    if (odd === "hang") return void hanging.push(res);
    if (odd) return res.writeHead(200, { "content-type": "application/json" }).end(Buffer.alloc(odd.huge, 0x20));

    const parts = url.pathname.split("/").filter(Boolean);
    if (parts[0] !== VERSION) return graphError(res, 400, { code: 2500, message: "Unknown path components" });
    if (!authorization)
      return graphError(res, 400, {
        code: 2500,
        type: "OAuthException",
        message: "An active access token must be used to query information about the current user.",
      });
    if (!authorized)
      return graphError(res, 401, {
        code: 190,
        type: "OAuthException",
        message: "Invalid OAuth access token - Cannot parse access token",
      });
    const [id, edge] = [parts[1] ?? "", parts[2]];

    if (req.method === "POST" && edge === "messages") {
      if (id !== phoneNumberId) return missing(res, id);
      let send: GraphSend;
      try {
        send = JSON.parse(body.toString("utf8"));
      } catch {
        return graphError(res, 400, { code: 100, message: "(#100) Invalid parameter" });
      }
      if (send.messaging_product !== "whatsapp")
        return graphError(res, 400, { code: 100, message: "(#100) The parameter messaging_product is required." });
      if (send.status === "read") {
        sends.push(send);
        return json(res, 200, { success: true });
      }
      if (!send.to || !send.type) return graphError(res, 400, { code: 100, message: "(#100) The parameter to is required." });
      const answeredId = wamid();
      send.answeredId = answeredId;
      sends.push(send);
      const wa = send.to.replace(/\D/g, "");
      return json(res, 200, {
        messaging_product: "whatsapp",
        contacts: [{ input: send.to, wa_id: wa }],
        messages: [{ id: answeredId }],
      });
    }

    if (req.method === "POST" && edge === "media") {
      if (id !== phoneNumberId) return missing(res, id);
      const file = multipartPart(body, String(req.headers["content-type"] ?? ""), "file");
      const product = multipartPart(body, String(req.headers["content-type"] ?? ""), "messaging_product");
      const typeField = multipartPart(body, String(req.headers["content-type"] ?? ""), "type");
      if (!file || product?.data.toString("utf8") !== "whatsapp")
        return graphError(res, 400, { code: 100, message: "(#100) The parameter file is required." });
      const mediaId = digits(16);
      const mime = typeField?.data.toString("utf8") || file.type;
      media.set(mediaId, { data: Buffer.from(file.data), mime });
      uploads.push({ type: mime, fileName: file.fileName, bytes: file.data.length, mime: file.type, id: mediaId });
      return json(res, 200, { id: mediaId });
    }

    if (req.method === "GET" && edge === "message_templates") {
      if (id !== businessAccountId) return missing(res, id);
      const limit = Math.max(1, Math.min(pageSize, Number(url.searchParams.get("limit") ?? pageSize) || pageSize));
      const after = Number(url.searchParams.get("after") ?? 0) || 0;
      const page = templates.slice(after, after + limit);
      const nextAt = after + page.length;
      const cursors = { before: String(after), after: String(nextAt) };
      const next =
        nextAt < templates.length
          ? `${origin}/${VERSION}/${businessAccountId}/message_templates?limit=${limit}&after=${nextAt}`
          : undefined;
      return json(res, 200, {
        data: page.map((t, i) => ({
          name: t.name,
          language: t.language,
          status: t.status ?? "APPROVED",
          category: t.category ?? "UTILITY",
          components: t.components ?? [],
          id: String(1000 + after + i),
        })),
        paging: { cursors, ...(next ? { next } : {}) },
      });
    }

    if (req.method === "GET" && edge === undefined) {
      if (id === phoneNumberId)
        return json(res, 200, {
          display_phone_number: displayPhoneNumber,
          verified_name: verifiedName,
          id: phoneNumberId,
          quality_rating: "GREEN",
        });
      const m = media.get(id);
      if (!m) return missing(res, id);
      return json(res, 200, {
        messaging_product: "whatsapp",
        url: `${origin}/media-download/${encodeURIComponent(id)}`,
        mime_type: m.mime,
        sha256: createHash("sha256").update(m.data).digest("hex"),
        file_size: m.data.length,
        id,
      });
    }
    return graphError(res, 400, { code: 100, message: "Unsupported request" });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}/${VERSION}`,
    accessToken,
    phoneNumberId,
    businessAccountId,
    displayPhoneNumber,
    sent: () => [...sends],
    uploads: () => [...uploads],
    addMedia: (id, data, mime) => void media.set(id, { data, mime }),
    setTemplates: (t) => {
      templates = t;
    },
    failNext: (status, error, times = 1) => {
      for (let i = 0; i < times; i++) failures.push({ status, error });
    },
    hangNext: (times = 1) => {
      for (let i = 0; i < times; i++) oddities.push("hang");
    },
    hugeNext: (bytes, times = 1) => {
      for (let i = 0; i < times; i++) oddities.push({ huge: bytes });
    },
    requests,
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A template send's `template` object as Meta's API takes it (what the fake records): body parameters in order. */
export function graphTemplate(name: string, language: string, params: string[]) {
  return {
    name,
    language: { code: language },
    components: [{ type: "body", parameters: params.map((text) => ({ type: "text", text })) }],
  };
}
