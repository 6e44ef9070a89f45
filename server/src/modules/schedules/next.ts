import { randomUUID } from "node:crypto";
import { extname } from "node:path";
import { DEFAULT_TIME_ZONE } from "@charla/contracts";
import { sql } from "drizzle-orm";
import type { Services } from "../../context.js";
import type { Tx } from "../../db/client.js";
import { rowsOf } from "../../lib/rate-limit.js";
import { schedules } from "../../db/schema/index.js";
import type { ScheduleRow } from "./presenter.js";
import { dayOfMonthIn, nextOccurrence } from "./repeat.js";

/**
 * A monthly series' day: the one its earliest occurrence still kept was set for, so a 31st clamped
 * to a 30th goes back to the 31st (the chain is followed by previous_id, within the company).
 */
async function anchorOf(tx: Tx, row: ScheduleRow, zone: string): Promise<number> {
  const result = await tx.execute(sql`
    with recursive chain(id, previous_id, send_at) as (
      select id, previous_id, send_at from ${schedules} where company_id = ${row.companyId} and id = ${row.id}
      union all
      select s.id, s.previous_id, s.send_at from ${schedules} s
        join chain c on s.id = c.previous_id and s.company_id = ${row.companyId}
    )
    select send_at from chain order by send_at asc limit 1`);
  const rows = rowsOf<{ send_at: string | Date }>(result);
  return dayOfMonthIn(rows.length ? new Date(rows[0].send_at) : row.sendAt, zone);
}

/**
 * The occurrence after a sent one, in the sender's transaction: same contact, text, connection,
 * author, repeat and (a copy of) file, at the next time of its rule after now. previous_id is unique,
 * so a second attempt (two nodes, a retry) inserts nothing; the copied file then goes.
 */
export async function insertNextOccurrence(s: Services, tx: Tx, sent: ScheduleRow, now: Date): Promise<void> {
  if (sent.repeat === "none") return;
  const zone = sent.timezone ?? DEFAULT_TIME_ZONE;
  const anchorDay = sent.repeat === "monthly" ? await anchorOf(tx, sent, zone) : undefined;
  const at = nextOccurrence(sent.sendAt, { repeat: sent.repeat, repeatDays: sent.repeatDays, zone, anchorDay }, now);
  if (!at) return;
  const mediaPath = sent.mediaPath
    ? await s.storage.write(
        sent.companyId,
        `schedules/${sent.id}-next-${randomUUID()}${extname(sent.mediaPath).toLowerCase()}`,
        await s.storage.read(sent.companyId, sent.mediaPath),
      )
    : null;
  const made = await tx
    .insert(schedules)
    .values({
      companyId: sent.companyId,
      body: sent.body,
      sendAt: at,
      contactId: sent.contactId,
      whatsappId: sent.whatsappId,
      userId: sent.userId,
      mediaPath,
      mediaName: mediaPath ? sent.mediaName : null,
      timezone: sent.timezone,
      repeat: sent.repeat,
      repeatDays: sent.repeatDays,
      previousId: sent.id,
    })
    .onConflictDoNothing({ target: schedules.previousId, where: sql`${schedules.previousId} is not null` })
    .returning({ id: schedules.id });
  if (made.length === 0 && mediaPath) await s.storage.remove(sent.companyId, mediaPath);
}
