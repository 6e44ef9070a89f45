import type { Sweep } from "./sweep.js";

/**
 * Ends this node's sockets of companies that can no longer be used (deactivated, or past their due
 * date, which passes at midnight). Each node looks at its own sockets, so nothing is claimed: every
 * node runs it, once a minute.
 */
export const companySockets: Sweep = {
  name: "company-sockets",
  everyMs: 60_000,
  batch: async (s) => {
    await s.realtime.sweepCompanies();
    // sockets ended are not a batch of rows: nothing is left for another turn of the round
    return 0;
  },
};
