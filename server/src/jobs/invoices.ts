import { createDueInvoices } from "../modules/invoices/sweep-service.js";
import type { Sweep } from "./sweep.js";

/**
 * Open invoices some days before each company's due date (behaviours: Subscriptions and invoices).
 * Days ahead, not urgent: a round a minute on each node is plenty.
 */
export const invoiceSweep: Sweep = { name: "invoices", batch: createDueInvoices, everyMs: 60_000 };
