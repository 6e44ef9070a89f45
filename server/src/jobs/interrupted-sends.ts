import { Ack } from "@charla/contracts";
import { and, eq, sql } from "drizzle-orm";
import type { Services } from "../context.js";
import { messages } from "../db/schema/index.js";
import { publishMessageUpdate } from "../modules/messages/broadcast.js";
import { deliverMessagesJob } from "./durable/deliver-messages.js";
import type { Sweep } from "./sweep.js";

/** Longer than any driver call may take (they time out well within it). */
export const INTERRUPTED_AFTER_SEC = 120;

/**
 * A send is recorded (ack 0) before its driver is called. When the process dies in between, the row
 * would wait forever: after INTERRUPTED_AFTER_SEC it is marked failed (ERR_SEND_INTERRUPTED), its
 * ticket's users see the error mark, and a retry with the same clientId sends it again under the
 * same WhatsApp id, so a message that did leave before the crash is not delivered twice. Automatic
 * messages are their delivery job's to settle while it may still run. One UPDATE
 * claims the rows, so with several nodes each row is announced once.
 */
export async function failInterruptedSends(s: Services, olderThanSec = INTERRUPTED_AFTER_SEC): Promise<number> {
  const rows = await s.db
    .update(messages)
    .set({ ack: Ack.failed, ackError: "ERR_SEND_INTERRUPTED", updatedAt: new Date() })
    .where(
      and(
        eq(messages.fromMe, true),
        eq(messages.ack, Ack.queued),
        sql`${messages.updatedAt} < now() - make_interval(secs => ${olderThanSec})`,
        // an automatic message whose delivery job is still to run (a session not back yet) is not lost:
        // the job sends it, or marks it failed at its last attempt (few such jobs: jobs_company_state_idx)
        sql`not exists (select 1 from jobs j where j.company_id = ${messages.companyId}
          and j.state in ('pending', 'running') and j.kind = ${deliverMessagesJob.kind}
          and j.payload -> 'messageIds' @> to_jsonb(${messages.id}))`,
      ),
    )
    .returning();
  const byCompany = new Map<number, typeof rows>();
  for (const r of rows) byCompany.set(r.companyId, [...(byCompany.get(r.companyId) ?? []), r]);
  for (const [companyId, list] of byCompany) await publishMessageUpdate(s, companyId, list);
  return rows.length;
}

/** A sweep of the runner, once a minute: one UPDATE claims every interrupted send of every company. */
export const interruptedSends: Sweep = {
  name: "interrupted-sends",
  everyMs: 60_000,
  batch: (s) => failInterruptedSends(s),
};
