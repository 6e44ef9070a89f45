import { Events } from "@charla/contracts";
import { eq, ne } from "drizzle-orm";
import type { Services } from "../context.js";
import { scoped } from "../db/scoped.js";
import { contacts, tickets } from "../db/schema/index.js";
import { findContactView } from "../modules/contacts/queries.js";
import type { AfterInbound } from "./inbound.js";

/** Pictures are asked of WhatsApp at most once a day per contact (behaviours: inbound path 5). */
export const PICTURE_REFRESH_MS = 24 * 60 * 60 * 1000;
const lastAsked = new Map<string, number>();

/**
 * After a contact writes, their profile picture is refreshed when it was not asked for today. The
 * remembered times are per process: a restart asks once more, which is harmless.
 */
export const refreshProfilePicture: AfterInbound = async (s: Services, source, { ticketId, msg }) => {
  if (msg.fromMe || msg.isGroup) return;
  const key = `${source.whatsappId}:${msg.number}`;
  const now = Date.now();
  if (now - (lastAsked.get(key) ?? 0) < PICTURE_REFRESH_MS) return;
  lastAsked.set(key, now);
  const driver = await s.sessions.driverFor(source.companyId, source.whatsappId);
  const url = driver ? await driver.profilePicture(msg.number).catch(() => null) : null;
  if (!url) return;
  const q = scoped(s.db, source.companyId);
  const [ticket] = await q.db
    .select({ contactId: tickets.contactId })
    .from(tickets)
    .where(q.tickets.where(eq(tickets.id, ticketId)));
  if (!ticket) return;
  const [changed] = await q.db
    .update(contacts)
    .set({ profilePicUrl: url, updatedAt: new Date() })
    .where(q.contacts.where(eq(contacts.id, ticket.contactId), ne(contacts.profilePicUrl, url)))
    .returning({ id: contacts.id });
  if (!changed) return;
  const view = await findContactView(q, changed.id);
  if (view) s.realtime.toCompany(source.companyId).emit(Events.contact(source.companyId), { action: "update", contact: view });
};
