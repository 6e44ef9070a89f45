import { createHmac, randomBytes } from "node:crypto";

/*
 * Meta's documented example webhook payloads (WhatsApp Cloud API, "messages" field: received
 * messages of every type, and statuses of sent ones), as builders with the values a test chooses.
 * Shapes follow developers.facebook.com/docs/whatsapp/cloud-api/webhooks/payload-examples. Node
 * builtins only: e2e/ and faults/ import this file by relative path.
 */

export type CloudPayload = {
  object: "whatsapp_business_account";
  entry: { id: string; changes: { field: string; value: object }[] }[];
};

/** Who the payload is for: the business's number (phone-number id, display number) and its account. */
export type Business = { phoneNumberId?: string; displayPhoneNumber?: string; businessAccountId?: string };

/** One customer message: who sent it, its wamid and time, and the message it replies to. */
export type From = {
  from?: string;
  name?: string;
  id?: string;
  /** Unix seconds (Meta sends a string). */
  timestamp?: number | string;
  context?: { from: string; id: string };
};

export const EXAMPLE_CUSTOMER = "16315551234";
export const EXAMPLE_NAME = "Kerry Fisher";

/** A wamid as Meta writes them ("wamid." and base64). */
export const wamid = (): string => `wamid.${randomBytes(30).toString("base64")}`;
const now = () => Math.floor(Date.now() / 1000);

/** The envelope around a change's value (`object`, `entry[].changes[]`, `messaging_product`, `metadata`). */
export function envelope(value: object, b: Business = {}): CloudPayload {
  return {
    object: "whatsapp_business_account",
    entry: [
      {
        id: b.businessAccountId ?? "102290129340398",
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: {
                display_phone_number: b.displayPhoneNumber ?? "15550783881",
                phone_number_id: b.phoneNumberId ?? "106540352242922",
              },
              ...value,
            },
          },
        ],
      },
    ],
  };
}

/** A received message payload: the sender's profile and one message of `type` with its `fields`. */
export function messagePayload(type: string, fields: object, f: From = {}, b: Business = {}): CloudPayload {
  const from = f.from ?? EXAMPLE_CUSTOMER;
  return envelope(
    {
      contacts: [{ profile: { name: f.name ?? EXAMPLE_NAME }, wa_id: from }],
      messages: [
        {
          ...(f.context ? { context: f.context } : {}),
          from,
          id: f.id ?? wamid(),
          timestamp: String(f.timestamp ?? now()),
          type,
          ...fields,
        },
      ],
    },
    b,
  );
}

/** Several received messages in one POST (Meta batches them). */
export function batchPayload(payloads: CloudPayload[], b: Business = {}): CloudPayload {
  const values = payloads.map(
    (p) => p.entry[0].changes[0].value as { contacts?: unknown[]; messages?: unknown[]; statuses?: unknown[] },
  );
  return envelope(
    {
      contacts: values.flatMap((v) => v.contacts ?? []),
      messages: values.flatMap((v) => v.messages ?? []),
      ...(values.some((v) => v.statuses) ? { statuses: values.flatMap((v) => v.statuses ?? []) } : {}),
    },
    b,
  );
}

export const text = (body: string, f?: From, b?: Business) => messagePayload("text", { text: { body } }, f, b);

export const image = (mediaId: string, caption?: string, f?: From, b?: Business) =>
  messagePayload(
    "image",
    { image: { ...(caption ? { caption } : {}), mime_type: "image/jpeg", sha256: "IMAGE_HASH", id: mediaId } },
    f,
    b,
  );

export const audio = (mediaId: string, f?: From, b?: Business) =>
  messagePayload("audio", { audio: { mime_type: "audio/mpeg", sha256: "AUDIO_HASH", id: mediaId, voice: false } }, f, b);

/** A voice note: Meta's audio with `voice: true`, Opus in Ogg. */
export const voice = (mediaId: string, f?: From, b?: Business) =>
  messagePayload(
    "audio",
    { audio: { mime_type: "audio/ogg; codecs=opus", sha256: "VOICE_HASH", id: mediaId, voice: true } },
    f,
    b,
  );

export const video = (mediaId: string, caption?: string, f?: From, b?: Business) =>
  messagePayload(
    "video",
    { video: { ...(caption ? { caption } : {}), mime_type: "video/mp4", sha256: "VIDEO_HASH", id: mediaId } },
    f,
    b,
  );

export const document = (mediaId: string, filename: string, caption?: string, f?: From, b?: Business) =>
  messagePayload(
    "document",
    {
      document: { ...(caption ? { caption } : {}), filename, mime_type: "application/pdf", sha256: "DOCUMENT_HASH", id: mediaId },
    },
    f,
    b,
  );

export const sticker = (mediaId: string, f?: From, b?: Business) =>
  messagePayload("sticker", { sticker: { mime_type: "image/webp", sha256: "STICKER_HASH", id: mediaId, animated: false } }, f, b);

export const location = (
  loc: { latitude: number; longitude: number; name?: string; address?: string } = {
    latitude: 37.4841,
    longitude: -122.1481,
    name: "Philz Coffee",
    address: "101 Forest Ave, Palo Alto, CA 94301",
  },
  f?: From,
  b?: Business,
) => messagePayload("location", { location: loc }, f, b);

/** Meta's shared-contact example: one card with every documented field. */
export const EXAMPLE_CARD = {
  addresses: [
    {
      city: "Menlo Park",
      country: "United States",
      country_code: "us",
      state: "CA",
      street: "1 Hacker Way",
      type: "HOME",
      zip: "94025",
    },
  ],
  birthday: "2012-08-18",
  emails: [{ email: "kfish@fb.com", type: "WORK" }],
  name: { formatted_name: "Kerry Fisher", first_name: "Kerry", last_name: "Fisher", middle_name: "", suffix: "", prefix: "" },
  org: { company: "Meta", department: "Developer Relations", title: "Directora" },
  phones: [{ phone: "+1 (940) 555-1234", wa_id: "19405551234", type: "HOME" }],
  urls: [{ url: "https://www.facebook.com", type: "WORK" }],
};

export const contacts = (cards: object[] = [EXAMPLE_CARD], f?: From, b?: Business) =>
  messagePayload("contacts", { contacts: cards }, f, b);

/** A quick-reply button of a template tapped (type "button"): replies to the template message. */
export const button = (textValue: string, payload: string, f?: From, b?: Business) =>
  messagePayload("button", { button: { text: textValue, payload } }, f, b);

export const buttonReply = (id: string, title: string, f?: From, b?: Business) =>
  messagePayload("interactive", { interactive: { type: "button_reply", button_reply: { id, title } } }, f, b);

export const listReply = (id: string, title: string, description: string, f?: From, b?: Business) =>
  messagePayload("interactive", { interactive: { type: "list_reply", list_reply: { id, title, description } } }, f, b);

/** A reaction; `emoji` left out: the customer took the reaction back. */
export const reaction = (messageId: string, emoji?: string, f?: From, b?: Business) =>
  messagePayload("reaction", { reaction: { message_id: messageId, ...(emoji !== undefined ? { emoji } : {}) } }, f, b);

/** A text that came from a click-to-WhatsApp ad (Meta's referral example). */
export const referral = (body: string, f?: From, b?: Business) =>
  messagePayload(
    "text",
    {
      text: { body },
      referral: {
        source_url: "https://fb.me/3cr4Wqqkv",
        source_id: "6049521512938",
        source_type: "ad",
        headline: "Ofertas de verano",
        body: "Hasta 50 % en toda la tienda",
        media_type: "image",
        image_url: "https://scontent.xx.fbcdn.net/v/ad-image.jpg",
        thumbnail_url: "https://scontent.xx.fbcdn.net/v/ad-thumb.jpg",
        ctwa_clid: "ARAkLkA8rmlFeiCktEJQ-QTwRiyYHAFDLMNDBH0CD3qpjd0HR4irJ6LEkR7JwFF4XvnO2E4Nx0-eM-GABDLOPaOdRMv-_zfUQ2a",
      },
    },
    f,
    b,
  );

/** A message type the Cloud API does not hand over (a poll, say): Meta's "unsupported" with its error. */
export const unsupported = (f?: From, b?: Business) =>
  messagePayload(
    "unsupported",
    {
      errors: [
        {
          code: 131051,
          title: "Message type unknown",
          message: "Message type unknown",
          error_data: { details: "Message type is currently not supported." },
        },
      ],
    },
    f,
    b,
  );

/** The customer changed their number (Meta's "system" message). */
export const system = (newWaId: string, f?: From, b?: Business) =>
  messagePayload(
    "system",
    {
      system: {
        body: `${f?.name ?? EXAMPLE_NAME} changed from ${f?.from ?? EXAMPLE_CUSTOMER} to ${newWaId}`,
        new_wa_id: newWaId,
        type: "user_changed_number",
      },
    },
    f,
    b,
  );

/** A catalogue order (Meta's "order" example). */
export const order = (f?: From, b?: Business) =>
  messagePayload(
    "order",
    {
      order: {
        catalog_id: "1234567890",
        text: "Para el viernes, por favor",
        product_items: [
          { product_retailer_id: "SKU-1", quantity: "2", item_price: "9.99", currency: "USD" },
          { product_retailer_id: "SKU-2", quantity: "1", item_price: "19.99", currency: "USD" },
        ],
      },
    },
    f,
    b,
  );

export type StatusName = "sent" | "delivered" | "read" | "failed";

/** A status of a message the business sent (`id` its wamid); "failed" carries Meta's error `code`. */
export function status(
  id: string,
  name: StatusName,
  opts: { recipient?: string; timestamp?: number; code?: number; title?: string } = {},
  b: Business = {},
): CloudPayload {
  const recipient = opts.recipient ?? EXAMPLE_CUSTOMER;
  const code = opts.code ?? 131026;
  return envelope(
    {
      statuses: [
        {
          id,
          status: name,
          timestamp: String(opts.timestamp ?? now()),
          recipient_id: recipient,
          ...(name === "failed"
            ? {
                errors: [
                  {
                    code,
                    title: opts.title ?? "Message undeliverable",
                    message: opts.title ?? "Message undeliverable",
                    error_data: { details: "Message failed to send." },
                    href: "https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/",
                  },
                ],
              }
            : {
                conversation: {
                  id: "CONVERSATION_ID",
                  ...(name === "sent" ? { expiration_timestamp: String(now() + 86_400) } : {}),
                  origin: { type: "service" },
                },
                pricing: { billable: true, pricing_model: "CBP", category: "service" },
              }),
        },
      ],
    },
    b,
  );
}

/** Errors about the number or the app, not about one message (value.errors). */
export const errorsPayload = (b?: Business) =>
  envelope(
    {
      errors: [
        {
          code: 131000,
          title: "Something went wrong",
          message: "Something went wrong",
          error_data: { details: "Unknown error" },
        },
      ],
    },
    b,
  );

/** The X-Hub-Signature-256 header Meta sends with these bytes (the body as a string, or the payload serialised). */
export function signBody(body: string | object, appSecret: string): string {
  const raw = typeof body === "string" ? body : JSON.stringify(body);
  return `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
}
