import type { CampaignView, ContactListView } from "@charla/contracts";
import { expect } from "vitest";
import type { SendOptions } from "../channels/driver.js";
import { campaignResumes, campaignSends, campaignStarts } from "../jobs/campaigns.js";
import { runSweeps } from "../jobs/runner.js";
import type { TestApp } from "./app.js";
import { type BotCompany, botCompany } from "./chatbot-kit.js";
import { caller, uid } from "./http.js";

export type Sent = { to: string; body: string; id?: string; kind: "text" | "media" };

/** A company on a plan with campaigns, its simulator connected and default. */
export function campaignCompany(t: TestApp): Promise<BotCompany> {
  return botCompany(t, { isDefault: true }, { plan: { useCampaigns: true } });
}

/** A contact list of the company holding these numbers (named "Cliente <number>"). */
export async function listOf(t: TestApp, w: BotCompany, numbers: string[]): Promise<ContactListView> {
  const call = caller(() => t.app);
  const list = (await call(w.session, "POST", "/contact-lists", { name: `Lista ${uid()}` })).json() as ContactListView;
  for (const number of numbers) {
    const res = await call(w.session, "POST", "/contact-list-items", {
      contactListId: list.id,
      name: `Cliente ${number}`,
      number,
      email: `c${number}@example.com`,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  return list;
}

/** Records what the connection's simulator sent (what it refused, a session down, is not in it). */
export async function outboxOf(t: TestApp, w: BotCompany): Promise<Sent[]> {
  const driver = await t.app.charla.sessions.driverFor(w.companyId, w.whatsappId);
  if (!driver) throw new Error("no simulator driver");
  const sent: Sent[] = [];
  const text = driver.sendText.bind(driver);
  const media = driver.sendMedia.bind(driver);
  driver.sendText = async (to: string, body: string, opts?: SendOptions) => {
    const done = await text(to, body, opts);
    sent.push({ to, body, id: opts?.messageId, kind: "text" });
    return done;
  };
  driver.sendMedia = async (to, m, opts) => {
    const done = await media(to, m, opts);
    sent.push({ to, body: m.caption ?? "", id: opts?.messageId, kind: "media" });
    return done;
  };
  return sent;
}

/** One round of the campaign sweeps (start, resume, send) as of `now`. */
export function runCampaigns(t: TestApp, now = new Date(), batchSize?: number) {
  return runSweeps(t.app.charla, {
    sweeps: [campaignStarts, campaignResumes, campaignSends],
    now: () => now,
    ...(batchSize ? { batchSize } : {}),
  });
}

/** Creates a campaign through the API (201 expected). */
export async function newCampaign(t: TestApp, w: BotCompany, body: Record<string, unknown>): Promise<CampaignView> {
  const res = await caller(() => t.app)(w.session, "POST", "/campaigns", { name: `Campaña ${uid()}`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as CampaignView;
}
