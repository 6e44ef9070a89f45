import type { InboundMessage } from "../channels/driver.js";
import type { Scoped } from "../db/scoped.js";
import { findOrCreateContact } from "../modules/contacts/find-or-create.js";

/**
 * Finds or creates the contact by (company, number) in one upsert, so two messages of a new contact
 * arriving together cannot create it twice. The push name names a contact known only by its number
 * when the contact writes (a message sent from the company's phone carries the company's own name).
 */
export async function upsertContact(q: Scoped, whatsappId: number, msg: InboundMessage) {
  const name = msg.name?.trim() || msg.number;
  // as the inbound statement does (pipeline/writer.ts): a new contact takes the name given, a known one only a customer's push name
  const renames = !msg.fromMe && Boolean(msg.name?.trim());
  return findOrCreateContact(q, { number: msg.number, name, isGroup: !!msg.isGroup, whatsappId }, renames ? "fill" : "keep");
}
