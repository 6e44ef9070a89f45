import type { CampaignReport } from "@charla/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { campaignCollection, campaignReportKey } from "../../api/campaigns";

/** A campaign sends in bursts and announces each one: the counts are read again at most this often. */
const REFETCH_EVERY_MS = 1_000;
/** secondary §4, §9: the report reloads 5 s after a live update reports FINALIZADA. */
const AFTER_FINISHED_MS = 5_000;

/**
 * Keeps one campaign's report live: its campaign's events patch the header at once and read the
 * counts again (throttled); FINALIZADA reads them once more 5 s later, so the last sends' results
 * are in. `onDeleted` runs when the campaign goes away.
 */
export function useLiveReport(campaignId: number, onDeleted: () => void): void {
  const client = useQueryClient();
  const key = campaignReportKey(campaignId);
  const lastRead = useRef(0);
  const nextRead = useRef<number | null>(null);
  const finishedRead = useRef<number | null>(null);

  useEffect(
    () => () => {
      for (const timer of [nextRead.current, finishedRead.current]) if (timer !== null) window.clearTimeout(timer);
    },
    [],
  );

  const readCounts = () => {
    lastRead.current = Date.now();
    void client.invalidateQueries({ queryKey: key });
  };

  // leading and trailing: the first event reads at once, a burst's last one is never lost
  const readSoon = () => {
    if (nextRead.current !== null) return;
    const wait = Math.max(0, lastRead.current + REFETCH_EVERY_MS - Date.now());
    nextRead.current = window.setTimeout(() => {
      nextRead.current = null;
      readCounts();
    }, wait);
  };

  const readAfterFinished = () => {
    if (finishedRead.current !== null) return;
    finishedRead.current = window.setTimeout(() => {
      finishedRead.current = null;
      readCounts();
    }, AFTER_FINISHED_MS);
  };

  campaignCollection.useLiveEvents((event) => {
    if (event.action === "delete") {
      if (event.id === campaignId) onDeleted();
      return;
    }
    const campaign = event.item;
    if (!campaign || campaign.id !== campaignId) return;
    client.setQueryData<CampaignReport>(key, (report) => report && { ...report, campaign });
    readSoon();
    if (campaign.status === "FINALIZADA") readAfterFinished();
  });
}
