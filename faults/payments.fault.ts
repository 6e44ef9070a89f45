import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  ADMIN,
  describeFault,
  faultDatabase,
  runBounded,
  type ScratchDatabase,
  ServerUnderTest,
  until,
  untilOnlyUs,
} from "./support/harness.js";

// Issue 29: payment confirmations across a SIGKILL. Many companies' invoices (written by the invoice
// sweep) are checked out, then their signed confirmations are posted at once, each event twice (a
// provider's duplicate delivery) and some invoices confirmed by a second, different event. The server
// is killed mid-burst, with confirmations in flight (some transactions between their receipt and
// their effects), and started again; the "provider" then retries every confirmation under its own
// event id until each is acknowledged. Each invoice must end paid exactly once, each company's due
// date moved by exactly one recurrence, and each event id have exactly one receipt.
const COMPANIES = 120;
/** The kill is ordered once this many confirmations have been answered: early in the burst. */
const KILL_AT = 40;
const SECRET = `whsec_${Buffer.from("charla-fault-test-webhook-secret").toString("base64")}`;

/** Due date, recurrence and the date one payment must move it to (month ends included). */
const CASES: [string, string, string][] = [
  ["2031-01-31", "MENSAL", "2031-02-28"],
  ["2031-12-31", "BIMESTRAL", "2032-02-29"],
  ["2031-11-30", "TRIMESTRAL", "2032-02-29"],
  ["2031-08-31", "SEMESTRAL", "2032-02-29"],
  ["2032-02-29", "ANUAL", "2033-02-28"],
  ["2031-03-15", "MENSAL", "2031-04-15"],
];

const log = (line: string) => console.log(`faults/payments: ${line}`);

type Event = { id: string; txid: string; amount: string };

describeFault("payment confirmations across a SIGKILL", () => {
  let database: ScratchDatabase;
  let server: ServerUnderTest;
  const webhook = new Webhook(SECRET);

  beforeAll(async () => {
    database = await faultDatabase("payments");
    server = new ServerUnderTest(database, {
      JOBS_INTERVAL_MS: "200",
      // the test's due dates are years ahead: the sweep bills them all at once
      INVOICE_DAYS_BEFORE: "3650",
      PIX_KEY: "pagos@charla.example",
      PIX_MERCHANT_NAME: "Charla",
      PIX_MERCHANT_CITY: "Recife",
      PAYMENT_WEBHOOK_SECRET: SECRET,
    });
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  /** One signed delivery of an event, fresh timestamp each time (as a provider's retry); null when cut off. */
  async function post(e: Event): Promise<{ status: number; body: Record<string, unknown> } | null> {
    const body = JSON.stringify({ type: "payment.confirmed", data: { txid: e.txid, amount: e.amount } });
    const at = new Date();
    try {
      const res = await fetch(`${server.url}/api/v1/subscription/webhook`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": e.id,
          "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
          "webhook-signature": webhook.sign(e.id, at, body),
        },
        body,
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    } catch {
      return null;
    }
  }

  it("pays each invoice once and moves each due date once when the server dies mid-burst and the provider retries", async () => {
    const db = database.db;
    const started = Date.now();

    // --- companies to bill, written while the first process runs (its migrations made the tables)
    await db.query("insert into plans (name, value) values ('Plan falla', '149.90'), ('Plan falla anual', '1999.00')");
    await db.query(
      `insert into companies (name, plan_id, due_date, recurrence)
       select 'Falla ' || g, (select id from plans where name = case when g % 5 = 4 then 'Plan falla anual' else 'Plan falla' end),
              (c.cases -> (g % ${CASES.length}) ->> 0)::date, c.cases -> (g % ${CASES.length}) ->> 1
         from generate_series(0, $1::int - 1) g, (select $2::jsonb as cases) c`,
      [COMPANIES, JSON.stringify(CASES.map(([due, recurrence]) => [due, recurrence]))],
    );
    const companies = (
      await db.query<{ id: number; name: string; due: string; recurrence: string }>(
        "select id, name, to_char(due_date, 'YYYY-MM-DD') as due, recurrence from companies where name like 'Falla %' order by id",
      )
    ).rows;
    expect(companies).toHaveLength(COMPANIES);

    // --- a new process: its first round of the invoice sweep bills every one of them, once
    await server.stop();
    await server.start();
    const invoiceCount = async () =>
      Number(
        (
          await db.query<{ n: string }>(
            "select count(*) as n from invoices i join companies c on c.id = i.company_id where c.name like 'Falla %'",
          )
        ).rows[0].n,
      );
    await until("the sweep's invoices", async () => (await invoiceCount()) === COMPANIES, 30_000, 100);

    // --- checkout of each invoice (the super admin may pay any company's): its txid
    const token = await server.login();
    const invoices = (
      await db.query<{ id: number; company_id: number; value: string }>(
        "select i.id, i.company_id, i.value::text as value from invoices i join companies c on c.id = i.company_id where c.name like 'Falla %' order by i.id",
      )
    ).rows;
    const txids = new Map<number, string>();
    await runBounded(invoices, 8, async (inv) => {
      const res = await fetch(`${server.url}/api/v1/subscription`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({
          invoiceId: inv.id,
          firstName: ADMIN.email,
          address2: "Rua 1",
          city: "Recife",
          zipcode: "50000",
          country: "BR",
          price: "0.01",
        }),
      });
      const view = (await res.json()) as { txid: string; valor: { original: string } };
      expect(view.valor.original).toBe(inv.value);
      txids.set(inv.id, view.txid);
    });
    expect(txids.size).toBe(COMPANIES);

    // --- the provider's events: one per invoice, a second different one for every third; each sent twice
    const events: Event[] = invoices.flatMap((inv, i) => {
      const one = { id: `evt_${inv.id}`, txid: txids.get(inv.id) as string, amount: inv.value };
      return i % 3 === 0 ? [one, { ...one, id: `evt_${inv.id}_again` }] : [one];
    });
    // each event twice, its two deliveries far apart, the second events among the first ones
    const deliveries = events.flatMap((e, i) => [e, events[events.length - 1 - i]]);

    let answered = 0;
    let killing: Promise<void> | null = null;
    const acknowledged = new Set<string>();
    await runBounded(
      deliveries,
      12,
      async (e) => {
        const res = await post(e);
        if (res?.status === 200) acknowledged.add(e.id);
        else if (res && !killing) throw new Error(`confirmation ${e.id} answered ${res.status} ${JSON.stringify(res.body)}`);
        if (++answered === KILL_AT) killing = server.kill();
      },
      () => killing !== null,
    );
    await killing;
    await untilOnlyUs(database);
    const progress = async () =>
      (
        await db.query<{ paid: number; receipts: number }>(
          `select (select count(*)::int from invoices where id = any($1) and status = 'paid') as paid,
                  (select count(*)::int from payment_receipts where event_id like 'evt\\_%') as receipts`,
          [invoices.map((i) => i.id)],
        )
      ).rows[0];
    const atKill = await progress();
    log(
      `kill after ${((Date.now() - started) / 1000).toFixed(1)} s: ${answered} answered of ${deliveries.length} deliveries, ` +
        `${acknowledged.size} events acknowledged, ${atKill.paid}/${COMPANIES} invoices paid, ${atKill.receipts} receipts`,
    );
    // the fault landed mid-burst: some invoices paid, most not
    expect(atKill.paid).toBeGreaterThan(0);
    expect(atKill.paid).toBeLessThan(COMPANIES);
    // what was acknowledged was committed with its effects
    expect(atKill.receipts).toBeGreaterThanOrEqual(acknowledged.size);

    // --- a new process; the provider retries every event, under its own id, until each is acknowledged
    await server.start();
    const outcomes = new Map<string, unknown>();
    for (let round = 0; outcomes.size < events.length && round < 5; round++) {
      await runBounded(
        events.filter((e) => !outcomes.has(e.id)),
        12,
        async (e) => {
          const res = await post(e);
          if (res?.status === 200) outcomes.set(e.id, res.body);
        },
      );
    }
    expect(outcomes.size).toBe(events.length);
    log(`restart: every event acknowledged ${((Date.now() - started) / 1000).toFixed(1)} s after the start`);

    // --- exactly once: every invoice paid, one paying receipt each, one receipt per event id
    const perInvoice = (
      await db.query<{ id: number; status: string; paying: number; receipts: number }>(
        `select i.id, i.status,
                count(r.id) filter (where r.outcome = 'paid')::int as paying, count(r.id)::int as receipts
           from invoices i left join payment_receipts r on r.invoice_id = i.id
          where i.id = any($1) group by i.id, i.status`,
        [invoices.map((i) => i.id)],
      )
    ).rows;
    expect(perInvoice).toHaveLength(COMPANIES);
    expect(perInvoice.filter((r) => r.status !== "paid" || r.paying !== 1)).toEqual([]);
    const receipts = (
      await db.query<{ event_id: string; outcome: string }>(
        "select event_id, outcome from payment_receipts where event_id like 'evt\\_%'",
      )
    ).rows;
    expect(receipts.map((r) => r.event_id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(receipts.filter((r) => r.outcome !== "paid" && r.outcome !== "already-paid")).toEqual([]);
    expect(receipts.filter((r) => r.outcome === "paid")).toHaveLength(COMPANIES);

    // --- each company's due date moved by exactly one recurrence from its invoice's
    const expected = new Map(CASES.map(([due, recurrence, next]) => [`${due} ${recurrence}`, next]));
    const after = (
      await db.query<{ id: number; due: string }>(
        "select id, to_char(due_date, 'YYYY-MM-DD') as due from companies where name like 'Falla %' order by id",
      )
    ).rows;
    const wrong = after.filter((c, i) => c.due !== expected.get(`${companies[i].due} ${companies[i].recurrence}`));
    expect(wrong).toEqual([]);
    log(
      `end: ${COMPANIES} invoices paid once each, ${receipts.length} receipts for ${events.length} events, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s in all`,
    );
  });
});
