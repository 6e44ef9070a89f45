import { type StatusReason, StatusReasons } from "@charla/contracts";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { messages, whatsapps } from "../../db/schema/index.js";
import type { SecretBox } from "../../lib/secret-box.js";
import type {
  ChannelDriver,
  ChannelTemplate,
  DriverContext,
  MediaPayload,
  ReadReceipt,
  SendOptions,
  Sent,
  Share,
  TemplateMessage,
} from "../driver.js";
import { CloudError } from "./errors.js";
import { type GraphClientOptions, GraphClient } from "./graph-client.js";
import {
  captionFollows,
  contextOf,
  mediaKindOf,
  mediaPayload,
  recipientOf,
  sharePayload,
  templatePayload,
  textPayload,
  uploadTypeOf,
} from "./outbound.js";
import { receivePayload } from "./receive.js";

/** Why a probe failed, as the connection's status reason (the page shows it): the catalogue's code. */
function statusReasonOf(err: unknown): StatusReason {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && (StatusReasons as readonly string[]).includes(code)
    ? (code as StatusReason)
    : "ERR_CLOUD_API";
}

/** What a Cloud API driver uses of the app. */
export type CloudHost = {
  db: Db;
  log: FastifyBaseLogger;
  secrets: Pick<SecretBox, "open">;
  config: Pick<Config, "graphApiUrl" | "maxUploadBytes">;
  /** Tests shorten the waits and limits. */
  graph?: Partial<Omit<GraphClientOptions, "baseUrl">>;
};

type Connection = Pick<
  typeof whatsapps.$inferSelect,
  "status" | "provider" | "cloudPhoneNumberId" | "cloudBusinessAccountId" | "cloudAccessTokenSealed"
>;

/**
 * Meta's official WhatsApp Cloud API as a channel (provider "cloud", issue 31). Nothing to hold open:
 * every call is an HTTPS request, so every process builds its own driver on first use and no lease
 * decides where it runs. The connection's row is read on each call (ids, sealed token, status), so an
 * edit or a "Disconnect" made on any process counts on every other at once. Customers' messages come
 * by the webhook, handed here from its durable row (receiveWebhook).
 */
export class CloudDriver implements ChannelDriver {
  readonly provider = "cloud";
  private client: { key: string; graph: GraphClient } | null = null;

  constructor(
    private readonly ctx: DriverContext,
    private readonly host: CloudHost,
  ) {}

  private async row(): Promise<Connection> {
    const [row] = await this.host.db
      .select({
        status: whatsapps.status,
        provider: whatsapps.provider,
        cloudPhoneNumberId: whatsapps.cloudPhoneNumberId,
        cloudBusinessAccountId: whatsapps.cloudBusinessAccountId,
        cloudAccessTokenSealed: whatsapps.cloudAccessTokenSealed,
      })
      .from(whatsapps)
      .where(and(eq(whatsapps.id, this.ctx.whatsappId), eq(whatsapps.companyId, this.ctx.companyId)));
    if (row?.provider !== "cloud") throw new CloudError("ERR_WAPP_NOT_INITIALIZED", "not a Cloud API connection");
    return row;
  }

  /** The Graph client for the row's ids and token; rebuilt (the token opened again) only when they change. */
  private graphOf(row: Connection): GraphClient {
    const key = `${row.cloudPhoneNumberId}|${row.cloudBusinessAccountId}|${row.cloudAccessTokenSealed}`;
    if (this.client?.key === key) return this.client.graph;
    let accessToken: string;
    try {
      accessToken = this.host.secrets.open(row.cloudAccessTokenSealed);
    } catch {
      // sealed under another key (SECRETS_KEY changed): the token must be saved again
      throw new CloudError("ERR_CLOUD_AUTH", "the stored access token cannot be opened (SECRETS_KEY changed?)");
    }
    if (!accessToken || !row.cloudPhoneNumberId)
      throw new CloudError("ERR_WAPP_NOT_INITIALIZED", "the connection has no access token or phone-number id");
    const graph = new GraphClient(
      { phoneNumberId: row.cloudPhoneNumberId, businessAccountId: row.cloudBusinessAccountId, accessToken },
      { maxMediaBytes: this.host.config.maxUploadBytes, ...this.host.graph, baseUrl: this.host.config.graphApiUrl },
    );
    this.client = { key, graph };
    return graph;
  }

  /** The client for a call that speaks for the company: refused once the connection is disconnected. */
  private async outbound(): Promise<GraphClient> {
    const row = await this.row();
    if (row.status === "DISCONNECTED") throw new CloudError("ERR_WAPP_NOT_INITIALIZED", "the connection is disconnected");
    return this.graphOf(row);
  }

  /**
   * Runs a Graph call; a refused token (190, or HTTP 401) also marks the connection DISCONNECTED, so its
   * page says so until a new token is saved. Other refusals concern one message and leave it as it is.
   */
  private async guarded<T>(run: (graph: GraphClient) => Promise<T>, graph?: GraphClient): Promise<T> {
    const client = graph ?? (await this.outbound());
    try {
      return await run(client);
    } catch (err) {
      if (err instanceof CloudError && (err.graphCode === 190 || err.httpStatus === 401)) {
        this.host.log.warn({ whatsappId: this.ctx.whatsappId, reason: err.reason }, "whatsapp cloud access token refused");
        await this.ctx.events.status("DISCONNECTED", { reason: "ERR_CLOUD_AUTH" }).catch(() => undefined);
      }
      throw err;
    }
  }

  private async send(number: string, payload: Record<string, unknown>, opts?: SendOptions): Promise<Sent> {
    const to = recipientOf(number, opts);
    const channelId = await this.guarded((g) => g.sendMessage({ to, ...payload, ...contextOf(opts) }));
    return { channelId, timestamp: new Date() };
  }

  /**
   * Nothing to open. A connection asked to start again ("Retry": OPENING) is probed, and its status
   * follows the answer; one CONNECTED or DISCONNECTED keeps its status (a process building its driver
   * must neither call Meta each time nor undo someone's "Disconnect").
   */
  async connect(): Promise<void> {
    const row = await this.row();
    if (row.status === "CONNECTED" || row.status === "DISCONNECTED") return;
    try {
      const { number } = await this.graphOf(row).phoneNumber();
      await this.ctx.events.status("CONNECTED", number ? { number } : {});
    } catch (err) {
      this.host.log.warn({ err, whatsappId: this.ctx.whatsappId }, "whatsapp cloud connection did not answer");
      await this.ctx.events.status("DISCONNECTED", { reason: statusReasonOf(err) });
    }
  }

  /** A process letting its driver go says nothing: the connection is served by the others still. */
  async disconnect(): Promise<void> {
    this.client = null;
  }

  async sendText(number: string, body: string, opts?: SendOptions): Promise<Sent> {
    return this.send(number, textPayload(body), opts);
  }

  /** Uploaded to the media endpoint first, then sent by its id; an audio's or a sticker's caption follows as text. */
  async sendMedia(number: string, media: MediaPayload & { caption?: string }, opts?: SendOptions): Promise<Sent> {
    recipientOf(number, opts);
    const mimetype = uploadTypeOf(media.mimetype, media.fileName);
    const kind = mediaKindOf(mimetype);
    const caption = media.caption?.trim() || undefined;
    const mediaId = await this.guarded((g) => g.uploadMedia(media, mimetype));
    const sent = await this.send(number, mediaPayload(kind, mediaId, caption, media.fileName), opts);
    if (captionFollows(kind, caption))
      // the file went out: a lost caption is logged, not reported as a failed send
      await this.send(number, textPayload(caption as string)).catch((err) =>
        this.host.log.warn({ err, whatsappId: this.ctx.whatsappId }, "whatsapp cloud caption not sent"),
      );
    return sent;
  }

  async sendShared(number: string, share: Share, opts?: SendOptions): Promise<Sent> {
    return this.send(number, sharePayload(share), opts);
  }

  async sendTemplate(number: string, template: TemplateMessage, opts?: SendOptions): Promise<Sent> {
    return this.send(number, templatePayload(template), opts);
  }

  /** The Cloud API cannot take a sent message back from the customer's phone. */
  async deleteForEveryone(): Promise<void> {
    throw new CloudError("ERR_DELETE_WAPP_MSG", "the Cloud API cannot delete a sent message");
  }

  /**
   * Meta marks a message read with every one before it, so one call for the newest of the receipts
   * (by when Charla stored them) reads them all.
   */
  async markRead(_number: string, receipts: ReadReceipt[]): Promise<void> {
    const ids = receipts.map((r) => r.channelId).filter((id) => id.startsWith("wamid."));
    if (!ids.length) return;
    const [newest] = await this.host.db
      .select({ channelId: messages.channelId })
      .from(messages)
      .where(
        and(
          eq(messages.companyId, this.ctx.companyId),
          eq(messages.whatsappId, this.ctx.whatsappId),
          inArray(messages.channelId, ids.slice(0, 1000)),
        ),
      )
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    const id = newest?.channelId ?? (ids.at(-1) as string);
    await this.guarded((g) => g.markRead(id));
  }

  /** The Cloud API shows no customer's picture. */
  async profilePicture(): Promise<string | null> {
    return null;
  }

  /** The Cloud API has no lookup of who is on WhatsApp: a number is taken as given (a send to a wrong one fails with 131026). */
  async checkNumber(number: string): Promise<string | null> {
    const digits = number.replace(/\D/g, "");
    return digits.length >= 5 && digits.length <= 20 ? digits : null;
  }

  /** A business number has no phone address book. */
  async contactsBook(): Promise<{ name: string; number: string }[]> {
    return [];
  }

  /** A verified payload from the webhook's durable row: customers' messages and the statuses of Charla's. */
  async receiveWebhook(payload: unknown): Promise<void> {
    const row = await this.row();
    await receivePayload(payload, this.ctx.events, (mediaId) => this.graphOf(row).downloadMedia(mediaId), this.host.log);
  }

  async templates(): Promise<ChannelTemplate[]> {
    const { templates, complete } = await this.guarded((g) => g.templates());
    if (!complete)
      this.host.log.warn(
        { whatsappId: this.ctx.whatsappId, listed: templates.length },
        "whatsapp cloud templates listing cut short",
      );
    return templates;
  }

  /** Proves the token and the number: the display number (digits) and the verified name. */
  async probe(): Promise<{ number: string; name: string }> {
    const row = await this.row();
    return this.guarded((g) => g.phoneNumber(), this.graphOf(row));
  }
}
