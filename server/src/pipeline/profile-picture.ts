import { eq, ne } from "drizzle-orm";
import type { ChannelDriver, InboundMessage } from "../channels/driver.js";
import type { Services } from "../context.js";
import { scoped } from "../db/scoped.js";
import { contacts, tickets } from "../db/schema/index.js";
import { findContactView } from "../modules/contacts/queries.js";

/** Pictures are asked of WhatsApp at most once a day per contact (behaviours: inbound path 5). */
export const PICTURE_REFRESH_MS = 24 * 60 * 60 * 1000;
/** Per app, as its Services are one process's: apps that share a process (test files) keep apart. */
const askedBy = new WeakMap<Services, Map<string, number>>();
const MAX_REMEMBERED = 50_000;
const PICTURE_TIMEOUT_MS = 10_000;

/**
 * After a contact writes (`message.received`), their profile picture is refreshed when it was not
 * asked for today. The remembered times are per process: a restart asks once more, which is harmless.
 */
export function registerProfilePictureRefresh(s: Services): void {
  s.events.on("message.received", { id: "pipeline.profile-picture", phase: "detached" }, (e) => refreshProfilePicture(s, e, e));
}

async function refreshProfilePicture(
  s: Services,
  source: { companyId: number; whatsappId: number },
  { ticketId, msg }: { ticketId: number; msg: Pick<InboundMessage, "fromMe" | "isGroup" | "number"> },
): Promise<void> {
  if (msg.fromMe || msg.isGroup) return;
  // only where the session runs (the event came from it): never a start, never a wait for another process
  const driver = s.sessions.runningDriver(source.companyId, source.whatsappId);
  if (!driver) return;
  const lastAsked = askedBy.get(s) ?? new Map<string, number>();
  askedBy.set(s, lastAsked);
  const key = `${source.whatsappId}:${msg.number}`;
  const now = Date.now();
  if (now - (lastAsked.get(key) ?? 0) < PICTURE_REFRESH_MS) return;
  if (lastAsked.size > MAX_REMEMBERED) lastAsked.clear();
  lastAsked.set(key, now);
  await update(s, source.companyId, ticketId, driver, msg.number).catch((err) =>
    s.log.debug({ err, ticketId }, "profile picture not refreshed"),
  );
}

async function update(s: Services, companyId: number, ticketId: number, driver: ChannelDriver, number: string) {
  const url = await Promise.race([
    driver.profilePicture(number),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), PICTURE_TIMEOUT_MS).unref()),
  ]);
  if (!url) return;
  const q = scoped(s.db, companyId);
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
  if (view)
    s.events.publish({
      type: "record.changed",
      companyId,
      audience: "company",
      area: "contact",
      change: { action: "update", contact: view },
    });
}
