import { and, eq, inArray, sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import { scoped } from "../../db/scoped.js";
import { contacts, messages, tickets } from "../../db/schema/index.js";
import { withTransaction } from "../../db/tx.js";
import { ticketAudience } from "../../policies/tickets.js";
import { findContactView } from "./queries.js";

const LIVE = ["open", "pending"];

/**
 * A contact known only by a channel address (a WhatsApp LID, `…@lid`, before WhatsApp told its number)
 * turns out to have `number`. With no contact of that number yet, it simply takes the number. When one
 * exists (the contact also wrote from its number), the address' conversations join it: its tickets
 * move over, a live ticket of the same connection hands its messages and unread count to the live one
 * there (one live ticket per contact and connection), and the address' contact goes. One contact, one
 * history, whichever way the messages came in.
 */
export async function adoptNumber(s: Services, companyId: number, address: string, number: string): Promise<void> {
  if (!address || !number || address === number) return;
  const outcome = await withTransaction(s.db, async (tx) => {
    const q = scoped(tx, companyId);
    const [from] = await tx
      .select()
      .from(contacts)
      .where(q.contacts.where(eq(contacts.number, address)))
      .for("update");
    if (!from) return null;
    const [into] = await tx
      .select()
      .from(contacts)
      .where(q.contacts.where(eq(contacts.number, number)))
      .for("update");
    // a name that was only the address becomes the number, as the pipeline names a contact with no push name
    const named = from.name === address || from.name === "" ? number : from.name;
    if (!into) {
      await tx
        .update(contacts)
        .set({ number, name: named, updatedAt: new Date() })
        .where(q.contacts.where(eq(contacts.id, from.id)));
      return { kept: from.id, gone: null, removed: [] };
    }
    const fromTickets = await tx
      .select()
      .from(tickets)
      .where(q.tickets.where(eq(tickets.contactId, from.id)))
      .for("update");
    const intoLive = await tx
      .select()
      .from(tickets)
      .where(q.tickets.where(eq(tickets.contactId, into.id), inArray(tickets.status, LIVE)))
      .for("update");
    const removed: { ticketId: number; audience: number[] }[] = [];
    for (const t of fromTickets) {
      const clash = LIVE.includes(t.status) ? intoLive.find((l) => l.whatsappId === t.whatsappId) : undefined;
      if (clash) {
        await tx
          .update(messages)
          .set({ ticketId: clash.id, contactId: into.id })
          .where(q.messages.where(eq(messages.ticketId, t.id)));
        await tx
          .update(tickets)
          .set({ unreadMessages: sql`${tickets.unreadMessages} + ${t.unreadMessages}`, updatedAt: new Date() })
          .where(q.tickets.where(eq(tickets.id, clash.id)));
        removed.push({ ticketId: t.id, audience: await ticketAudience(q, t) });
        await tx.delete(tickets).where(q.tickets.where(eq(tickets.id, t.id)));
      } else {
        await tx
          .update(tickets)
          .set({ contactId: into.id })
          .where(q.tickets.where(eq(tickets.id, t.id)));
        await tx
          .update(messages)
          .set({ contactId: into.id })
          .where(q.messages.where(eq(messages.ticketId, t.id)));
      }
    }
    await tx.delete(contacts).where(and(eq(contacts.companyId, companyId), eq(contacts.id, from.id)));
    return { kept: into.id, gone: from.id, removed };
  });
  if (!outcome) return;
  // the address' live ticket is now part of the number's: its rows leave the lists that showed them
  for (const r of outcome.removed)
    s.events.publish({ type: "ticket.deleted", companyId, ticketId: r.ticketId, audience: r.audience });
  const contactEvent = { type: "record.changed", companyId, audience: "company", area: "contact" } as const;
  if (outcome.gone !== null) s.events.publish({ ...contactEvent, change: { action: "delete", contactId: outcome.gone } });
  const view = await findContactView(scoped(s.db, companyId), outcome.kept);
  if (view) s.events.publish({ ...contactEvent, change: { action: "update", contact: view } });
}
