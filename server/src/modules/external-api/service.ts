import { randomUUID } from "node:crypto";
import {
  ExternalApi,
  type ExternalSendResponse,
  ExternalSendMediaFields,
  ExternalSendText,
  Limits,
  type ListGroupsResponse,
  type SharedContactBody,
  type SharedContactResponse,
  type TicketMessagesQuery,
  type TicketMessagesResponse,
  V,
  storableText,
} from "@charla/contracts";
import { and, count, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Services } from "../../context.js";
import { type Scoped, scoped } from "../../db/scoped.js";
import { contacts, externalApiRequests, messages, tickets } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { AppError, found } from "../../lib/app-error.js";
import { checkedMimetype } from "../../lib/file-signature.js";
import { fillTemplate } from "../../lib/template.js";
import { extensionOf } from "../../pipeline/media.js";
import { ticketForCompany } from "../tickets/openings.js";
import { resolve, within } from "../tickets/transitions.js";
import { companyTimeZone } from "../companies/time-zone.js";
import { findOrCreateContact } from "../contacts/find-or-create.js";
import { findContactView } from "../contacts/queries.js";
import { assertCloudLength, assertWindowOpen } from "../cloud/window.js";
import { driverError, type StoredMedia } from "../messages/send.js";
import { answerTicket, asCompany } from "../messages/service.js";
import type { ApiCaller } from "./auth.js";

type TicketRow = typeof tickets.$inferSelect;

/** What POST /api/messages/send asks: JSON text, or multipart files (the text their caption). */
export type SendRequest = { number: string; body: string; closeTicket: boolean; files: StoredMedia[] };

const issuesOf = (error: z.ZodError) => error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));

/**
 * The request's send: JSON `{number, body, closeTicket?}` or multipart `{number, body?, closeTicket?,
 * medias}` (1 to 10 files, each within MAX_UPLOAD_BYTES and the company's quota, streamed to disk).
 * Refused, no file stays.
 */
export async function readSendRequest(s: Services, caller: ApiCaller, req: FastifyRequest): Promise<SendRequest> {
  if (!req.isMultipart()) {
    const parsed = ExternalSendText.safeParse(req.body ?? {});
    if (!parsed.success) throw new AppError("ERR_VALIDATION", { issues: issuesOf(parsed.error) });
    return { number: parsed.data.number, body: parsed.data.body, closeTicket: !!parsed.data.closeTicket, files: [] };
  }
  const files: StoredMedia[] = [];
  try {
    const fields = await readParts(s, caller, req, files);
    const parsed = ExternalSendMediaFields.safeParse({ number: fields.number, body: fields.body });
    if (!parsed.success) throw new AppError("ERR_VALIDATION", { issues: issuesOf(parsed.error) });
    if (files.length === 0) throw new AppError("ERR_VALIDATION", { issues: [{ path: "medias", message: V.required }] });
    const closeTicket = ["1", "true"].includes((fields.closeTicket ?? "").trim().toLowerCase());
    return { number: parsed.data.number, body: parsed.data.body ?? "", closeTicket, files };
  } catch (err) {
    await removeFiles(s, caller.companyId, files);
    throw err;
  }
}

export async function removeFiles(s: Services, companyId: number, files: Iterable<StoredMedia>) {
  for (const file of files) await s.storage.remove(companyId, file.path).catch(() => undefined);
}

/** A form field's bytes: the longest caption (in characters) in UTF-8; a longer one is refused, never cut. */
const FIELD_BYTES = Limits.messageBody.max * 4;

async function readParts(s: Services, caller: ApiCaller, req: FastifyRequest, files: StoredMedia[]) {
  const maxBytes = s.config.maxUploadBytes;
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({ limits: { fileSize: maxBytes, files: 10, fields: 20, fieldSize: FIELD_BYTES } })) {
      if (part.type === "file") {
        if (part.fieldname !== "medias" && part.fieldname !== "medias[]") {
          part.file.resume();
          continue;
        }
        const declared = part.mimetype || "application/octet-stream";
        const fileName = storableText(part.filename || "") || "file";
        const relative = `media/${randomUUID()}${extensionOf({ mimetype: declared, fileName, data: Buffer.alloc(0) })}`;
        const stored = await s.storage.writeUpload(caller.companyId, relative, part.file, maxBytes);
        files.push({ path: stored.path, mimetype: declared, fileName });
        // the declared type is the client's word: an "image" whose bytes are not one goes as a document
        const head = await s.storage.head(caller.companyId, stored.path, 16);
        files[files.length - 1].mimetype = checkedMimetype(head, declared);
      } else if (typeof part.value === "string") {
        if (part.valueTruncated) throw new AppError("ERR_VALIDATION", { issues: [{ path: part.fieldname, message: V.tooLong }] });
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw new AppError("ERR_FILE_TOO_LARGE");
    if (code === "FST_FILES_LIMIT" || code === "FST_FIELDS_LIMIT" || code === "FST_PARTS_LIMIT")
      throw new AppError("ERR_VALIDATION", { issues: [{ path: "medias", message: V.tooLong }] });
    throw new AppError("ERR_BAD_REQUEST");
  }
  return fields;
}

/** An idempotency key's answer is kept a day; a claim whose request never answered is taken over after 10 minutes. */
const KEY_KEPT_MS = 86_400_000;
const CLAIM_STALE_MS = 600_000;

type Claim = { replay: z.infer<typeof ExternalSendResponse> } | { claimId: number };

/**
 * The first request with a key claims it; a retry gets the stored answer back (nothing is sent again);
 * a duplicate while the first still runs is 409 ERR_IDEMPOTENCY_IN_PROGRESS.
 */
async function claimKey(s: Services, caller: ApiCaller, key: string): Promise<Claim> {
  const q = scoped(s.db, caller.companyId);
  const now = Date.now();
  const mine = and(eq(externalApiRequests.whatsappId, caller.whatsappId), eq(externalApiRequests.key, key));
  await s.db
    .delete(externalApiRequests)
    .where(
      q.externalApiRequests.where(
        mine,
        or(
          lt(externalApiRequests.createdAt, new Date(now - KEY_KEPT_MS)),
          and(isNull(externalApiRequests.response), lt(externalApiRequests.createdAt, new Date(now - CLAIM_STALE_MS))),
        ),
      ),
    );
  const [claimed] = await s.db
    .insert(externalApiRequests)
    .values({ companyId: caller.companyId, whatsappId: caller.whatsappId, key })
    .onConflictDoNothing()
    .returning({ id: externalApiRequests.id });
  if (claimed) return { claimId: claimed.id };
  const [existing] = await s.db
    .select({ response: externalApiRequests.response })
    .from(externalApiRequests)
    .where(q.externalApiRequests.where(mine));
  if (existing?.response) return { replay: existing.response as z.infer<typeof ExternalSendResponse> };
  throw new AppError("ERR_IDEMPOTENCY_IN_PROGRESS");
}

/** The number's WhatsApp form: a group id as it is, a person's checked with the channel when it can tell. */
async function recipient(s: Services, caller: ApiCaller, number: string): Promise<{ number: string; isGroup: boolean }> {
  const driver = await s.sessions.driverFor(caller.companyId, caller.whatsappId);
  if (!driver) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  const digits = number.replace(/@g\.us$/, "");
  if (number.endsWith("@g.us") || digits.length > 15) return { number: digits, isGroup: true };
  let checked: string | null;
  try {
    checked = await driver.checkNumber(digits);
  } catch (err) {
    throw driverError(err, "ERR_WAPP_CHECK_CONTACT");
  }
  if (!checked) throw new AppError("ERR_WAPP_INVALID_CONTACT");
  return { number: checked, isGroup: false };
}

/**
 * The contact (found or created by number) and the ticket the API's message goes to, as any message the
 * company starts (modules/tickets/openings.ts `ticketForCompany`): the connection's area's people get
 * the customer's answer, the bot stays out. With `closeTicket` a ticket closed moments ago takes the
 * message and stays closed.
 */
async function contactTicket(s: Services, caller: ApiCaller, to: { number: string; isGroup: boolean }, keepClosed: boolean) {
  return withTransaction(s, async (tx, hooks) => {
    const w = within(s, tx, caller.companyId, hooks);
    const contact = await findOrCreateContact(
      w.q,
      { number: to.number, name: to.number, isGroup: to.isGroup, whatsappId: caller.whatsappId },
      "keep",
    );
    const { ticket } = await ticketForCompany(w, contact, { author: null, whatsappId: caller.whatsappId }, { keepClosed });
    return { contact, ticket };
  });
}

/** The ticket resolved by the API (behaviours: optionally closes it): nobody's resolve, no rating, no completion text. */
async function closeTicket(s: Services, companyId: number, ticketId: number) {
  await withTransaction(s, async (tx, hooks) => {
    const w = within(s, tx, companyId, hooks);
    const before = await w.q.tickets.lockById(ticketId);
    if (!before || before.status === "closed") return;
    // the customer's answer still reaches the area the API's message went to
    await resolve(w, before, null, { keepCompanyStart: true });
  });
}

export const SENT_TEXT = "Mensaje enviado";

/**
 * POST /api/messages/send (behaviours: External API): the number checked, the contact and its ticket
 * found or created on the token's connection, the text (variables filled) sent at once and each file
 * through the same record-first path (messages/send.ts), the ticket closed when asked. With an
 * idempotency key a retry answers the first answer without sending again; a failed send may be
 * retried with the same key and goes under the same message id.
 */
export async function sendExternal(
  s: Services,
  caller: ApiCaller,
  input: SendRequest,
  idempotencyKey: string | null,
): Promise<z.infer<typeof ExternalSendResponse>> {
  const unsent = new Set(input.files);
  let claimId: number | null = null;
  try {
    if (idempotencyKey) {
      const claim = await claimKey(s, caller, idempotencyKey);
      if ("replay" in claim) return claim.replay;
      claimId = claim.claimId;
    }
    const to = await recipient(s, caller, input.number);
    // outside a Cloud API customer's window nothing is recorded, not even the contact or its ticket
    const window = await assertWindowOpen(s.db, caller.companyId, caller.whatsappId, to.number);
    if (window.applies) assertCloudLength(input.body, { caption: input.files.length > 0 });
    const { contact, ticket } = await contactTicket(s, caller, to, input.closeTicket);
    const body = fillTemplate(input.body, {
      name: contact.name,
      email: contact.email ?? "",
      ticketId: ticket.id,
      timeZone: await companyTimeZone(s.db, caller.companyId),
    });
    const clientId = idempotencyKey ? `api:${idempotencyKey}` : undefined;
    // the company's answer, by the one door every answer takes (core §4 checks, record first)
    await answerTicket(
      s,
      caller.companyId,
      asCompany,
      ticket.id,
      { body, quotedId: null, sign: false, clientId, files: input.files },
      { onHandOver: (file) => unsent.delete(file) },
    );
    if (input.closeTicket) await closeTicket(s, caller.companyId, ticket.id);
    const answer: z.infer<typeof ExternalSendResponse> = { mensagem: SENT_TEXT, ticket_uuid: ticket.uuid };
    if (claimId !== null)
      await s.db
        .update(externalApiRequests)
        .set({ response: answer })
        .where(and(eq(externalApiRequests.companyId, caller.companyId), eq(externalApiRequests.id, claimId)));
    claimId = null;
    return answer;
  } finally {
    await removeFiles(s, caller.companyId, unsent);
    // refused or failed: the key is free again, so the client's retry is tried (and finds its failed message)
    if (claimId !== null)
      await s.db
        .delete(externalApiRequests)
        .where(and(eq(externalApiRequests.companyId, caller.companyId), eq(externalApiRequests.id, claimId)))
        .catch(() => undefined);
  }
}

/** POST /api/shared-contact: the contact saved in the token's company (created, or its name and email updated). */
export async function shareContact(
  s: Services,
  caller: ApiCaller,
  input: z.output<typeof SharedContactBody>,
): Promise<z.infer<typeof SharedContactResponse>> {
  if (input.company_id && input.company_id !== caller.companyId)
    throw new AppError("ERR_VALIDATION", { issues: [{ path: "company_id", message: V.invalid }] });
  const number = input.number.replace(/@g\.us$/, "");
  return withTransaction(s, async (tx, { publish }) => {
    const q = scoped(tx, caller.companyId);
    const row = await findOrCreateContact(q, { number, name: input.name, email: input.email ?? "" }, "overwrite");
    const view = found(await findContactView(q, row.id), "ERR_NO_CONTACT_FOUND");
    await publish({
      type: "record.changed",
      companyId: caller.companyId,
      audience: "company",
      area: "contact",
      change: { action: row.inserted ? "create" : "update", contact: view },
    });
    return {
      mensagem: row.inserted ? "Contacto creado" : "Contacto actualizado",
      contact: { id: row.id, name: row.name, number: row.number, email: row.email ?? "" },
    };
  });
}

/** The ticket of the token's connection (by id or uuid); any other, another company's included, is not found. */
async function connectionTicket(q: Scoped, caller: ApiCaller, ticketId: number | string): Promise<TicketRow> {
  const [ticket] = await q.db
    .select()
    .from(tickets)
    .where(
      q.tickets.where(
        eq(tickets.whatsappId, caller.whatsappId),
        typeof ticketId === "number" ? eq(tickets.id, ticketId) : eq(tickets.uuid, ticketId),
      ),
    )
    .limit(1);
  return found(ticket, "ERR_NO_TICKET_FOUND");
}

/** GET /api/ticket-messages: 20 a page from the newest, each page oldest first (as the chat shows them). */
export async function ticketMessages(
  s: Services,
  caller: ApiCaller,
  query: z.output<typeof TicketMessagesQuery>,
): Promise<z.infer<typeof TicketMessagesResponse>> {
  const q = scoped(s.db, caller.companyId);
  const ticket = await connectionTicket(q, caller, query.ticketId);
  const size = ExternalApi.pageSize;
  const mine = q.messages.where(eq(messages.ticketId, ticket.id), eq(messages.isDeleted, false));
  const [rows, [{ total }]] = await Promise.all([
    q.db
      .select({ m: messages, contact: { id: contacts.id, name: contacts.name, number: contacts.number } })
      .from(messages)
      .leftJoin(contacts, and(eq(contacts.companyId, messages.companyId), eq(contacts.id, messages.contactId)))
      .where(mine)
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(size)
      .offset((query.pageNumber - 1) * size),
    q.db.select({ total: count() }).from(messages).where(mine),
  ]);
  const page = rows.reverse().map(({ m, contact }) => ({
    id: m.id,
    body: m.body,
    fromMe: m.fromMe,
    mediaType: m.mediaType,
    mediaUrl: m.mediaName ?? null,
    ack: m.ack,
    read: m.read,
    createdAt: m.createdAt.toISOString(),
    contact: m.fromMe || !contact ? null : contact,
  }));
  const total_ = Number(total);
  return {
    messages: page,
    count: total_,
    hasMore: total_ > query.pageNumber * size,
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status },
  };
}

/** GET /api/list-groups: the groups of the token's connection, as its phone lists them. */
export async function listGroups(s: Services, caller: ApiCaller): Promise<z.infer<typeof ListGroupsResponse>> {
  const driver = await s.sessions.driverFor(caller.companyId, caller.whatsappId);
  if (!driver) throw new AppError("ERR_WAPP_NOT_INITIALIZED");
  let groups: Awaited<ReturnType<NonNullable<typeof driver.groups>>> | undefined;
  try {
    groups = await driver.groups?.();
  } catch (err) {
    throw driverError(err, "ERR_WAPP_NOT_INITIALIZED");
  }
  const sorted = [...(groups ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  return { mensagem: "Grupos de la conexión", groups: sorted.slice(0, 5000) };
}
