import { Events, type PaymentEventPayload } from "@charla/contracts";
import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { BILLING_CONFIG, buildInvoice, confirm } from "../../test/billing-kit.js";
import { buildCompany, buildUser, login } from "../../test/factories.js";
import { listeningTestApp } from "../../test/sockets.js";

const t = listeningTestApp(BILLING_CONFIG);

/** Every event a socket receives. */
function record(s: Socket) {
  const got: { event: string; payload: unknown }[] = [];
  s.onAny((event: string, payload: unknown) => got.push({ event, payload }));
  return got;
}
const next = (s: Socket, event: string) => new Promise<unknown>((resolve) => s.once(event, resolve));

async function company(dueDate: string) {
  const c = await buildCompany(t.app, { dueDate, recurrence: "TRIMESTRAL" });
  const agent = await buildUser(t.app, c.id, { profile: "user" });
  const sockets = await Promise.all([c.admin, agent].map(async (u) => t.open(await login(t.app, u))));
  const invoice = await buildInvoice(t.app, c.id, {
    dueDate,
    value: "300.00",
    txid: `SOCK${c.id}X${dueDate.replaceAll("-", "")}`,
  });
  return { c, sockets, invoice };
}

describe("#payments sockets", () => {
  it("a confirmed payment reaches the paying company's users as company-{id}-payment CONCLUIDA, and no one else", async () => {
    const a = await company("2031-11-30");
    const b = await company("2031-12-31");
    const bHeard = b.sockets.map(record);

    const heard = a.sockets.map((s) => next(s, Events.payment(a.c.id)));
    expect((await confirm(t.app, { txid: a.invoice.txid as string, amount: "300.00" })).json().outcome).toBe("paid");
    const expected: PaymentEventPayload = {
      action: "CONCLUIDA",
      company: { id: a.c.id, dueDate: "2032-02-29" },
      invoiceId: a.invoice.id,
    };
    expect(await Promise.all(heard)).toEqual([expected, expected]);

    // B's own payment, after A's: once B hears it, anything of A's meant for B would have come first
    const own = b.sockets.map((s) => next(s, Events.payment(b.c.id)));
    await confirm(t.app, { txid: b.invoice.txid as string, amount: "300.00" });
    await Promise.all(own);
    for (const got of bHeard)
      expect(got).toEqual([
        {
          event: Events.payment(b.c.id),
          payload: { action: "CONCLUIDA", company: { id: b.c.id, dueDate: "2032-03-31" }, invoiceId: b.invoice.id },
        },
      ]);
  });
});
