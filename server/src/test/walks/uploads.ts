import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import {
  campaigns,
  companies,
  contactListItems,
  contacts,
  fileListOptions,
  messages,
  quickMessages,
  schedules,
  users,
} from "../../db/schema/index.js";
import type { TestApp } from "../app.js";
import { campaignCompany, listOf, newCampaign } from "../campaign-kit.js";
import { buildContact, buildTicket } from "../factories.js";
import { caller, uid } from "../http.js";

/** The field names upload routes read their file from (a route reading another is found all the same). */
export const uploadFields = ["file", "files", "medias", "logo", "profileImage"];

const BOUNDARY = "walkcut";
const partHead = (field: string, boundary = BOUNDARY) =>
  `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
const PNG_HEAD = "\x89PNG\r\n\x1a\n";

/** A multipart body whose file part is cut mid-file: the body ends where the file should go on. */
export function cutMidFile(field: string) {
  return {
    payload: `${partHead(field)}${PNG_HEAD}${"A".repeat(5000)}`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}

/** Truncated and malformed multipart bodies carrying a file in `field`: none may be stored. */
export function badMultiparts(field: string): { name: string; payload: string; contentType: string }[] {
  const ok = `${partHead(field)}${PNG_HEAD}AAAA\r\n--${BOUNDARY}--\r\n`;
  return [
    { name: "cut mid-file", ...cutMidFile(field) },
    {
      name: "cut in the part's headers",
      payload: `--${BOUNDARY}\r\nContent-Disposition: form-da`,
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    },
    {
      name: "no closing boundary",
      payload: `${partHead(field)}${PNG_HEAD}AAAA\r\n`,
      contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    },
    { name: "a boundary the body does not use", payload: ok, contentType: "multipart/form-data; boundary=other" },
    { name: "no boundary", payload: ok, contentType: "multipart/form-data" },
    { name: "an empty boundary", payload: ok, contentType: 'multipart/form-data; boundary=""' },
    { name: "empty body", payload: "", contentType: `multipart/form-data; boundary=${BOUNDARY}` },
    { name: "text/plain", payload: ok, contentType: "text/plain" },
    { name: "octet-stream", payload: ok, contentType: "application/octet-stream" },
    { name: "json", payload: ok, contentType: "application/json" },
  ];
}

/**
 * A company (on a plan with campaigns) holding one record of each kind an upload belongs to, and the
 * id each route parameter names (by the path segment before it), so bodies reach the file reading.
 */
export async function uploadWorld(t: TestApp) {
  const w = await campaignCompany(t);
  const call = caller(() => t.app);
  const list = await listOf(t, w, []);
  const created = async (url: string, body: object) => {
    const res = await call(w.session, "POST", url, body);
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json() as { id: number };
  };
  const reply = await created("/quick-messages", { shortcode: `walk${uid()}`, message: "hola" });
  const scheduled = await created("/schedules", {
    contactId: (await buildContact(t.app, w.companyId)).id,
    body: "hola",
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const campaign = await newCampaign(t, w, { message1: "hola", contactListId: list.id });
  const fileList = await created("/files", { name: `Archivos ${uid()}`, message: "m", options: [{ name: "uno" }] });
  const contact = await buildContact(t.app, w.companyId);
  const ticket = await buildTicket(t.app, w.companyId, {
    contactId: contact.id,
    whatsappId: w.whatsappId,
    status: "open",
    userId: w.session.userId,
  });
  const ids: Record<string, number> = {
    users: w.session.userId,
    companies: w.companyId,
    "quick-messages": reply.id,
    schedules: scheduled.id,
    "contact-lists": list.id,
    campaigns: campaign.id,
    uploadList: fileList.id,
    messages: ticket.id,
    whatsappsession: w.whatsappId,
    "ticket-tags": ticket.id,
  };
  /** The route's path with each parameter replaced by the world's id for its segment (unknown: none such). */
  const fill = (url: string) =>
    url
      .split("/")
      .map((part, i, all) => (part.startsWith(":") ? String(ids[all[i - 1]] ?? 987654) : part))
      .join("/");

  /** Everything an upload may write: the company's files, its usage and the rows files belong to. */
  const state = async () => {
    const db = t.app.charla.db;
    const one = async <T>(rows: Promise<T[]>) => (await rows)[0];
    return {
      files: filesUnder(join(t.config.dataDir, "files", `company${w.companyId}`)),
      company: await one(
        db
          .select({ logo: companies.logoPath, bytes: companies.storageBytes })
          .from(companies)
          .where(eq(companies.id, w.companyId)),
      ),
      user: await one(db.select({ image: users.profileImage }).from(users).where(eq(users.id, w.session.userId))),
      reply: await one(db.select({ media: quickMessages.mediaPath }).from(quickMessages).where(eq(quickMessages.id, reply.id))),
      schedule: await one(db.select({ media: schedules.mediaPath }).from(schedules).where(eq(schedules.id, scheduled.id))),
      campaign: await one(db.select({ media: campaigns.mediaPath }).from(campaigns).where(eq(campaigns.id, campaign.id))),
      options: await db
        .select({ path: fileListOptions.path })
        .from(fileListOptions)
        .where(eq(fileListOptions.fileListId, fileList.id)),
      items: (await db.select().from(contactListItems).where(eq(contactListItems.contactListId, list.id))).length,
      messages: (await db.select().from(messages).where(eq(messages.ticketId, ticket.id))).length,
      contacts: (await db.select({ id: contacts.id }).from(contacts).where(eq(contacts.companyId, w.companyId))).length,
    };
  };
  return { session: w.session, fill, state };
}

/** Every file under `dir`, partial ones included. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)],
  );
}
