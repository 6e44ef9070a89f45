import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { ADMIN, api, apiLogin } from "./server.js";

/** A request as a fake service saw it: the body read whole (tests send small ones). */
export type FakeRequest = { method: string; url: string; headers: IncomingMessage["headers"]; body: string };
export type FakeAnswer = { status: number; json?: unknown };

/**
 * A local stand-in for a service the product calls (an AI endpoint, Typebot, a webhook receiver),
 * on 127.0.0.1 and a free port: `answer` decides each reply; an empty 204 when it returns nothing.
 */
export async function startFakeService(answer: (req: FakeRequest) => FakeAnswer | undefined) {
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const got = {
      method: req.method ?? "GET",
      url: req.url ?? "",
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    const out = answer(got);
    if (!out) return res.writeHead(204).end();
    res.writeHead(out.status, { "content-type": "application/json" }).end(JSON.stringify(out.json ?? null));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

type Plan = Record<string, unknown> & { id: number };

/** Turns plan flags on or off for the first plan (the seeded company's), through the API as its admin. */
export async function setPlanFlags(base: string, flags: Record<string, boolean>): Promise<string> {
  const token = await apiLogin(base, ADMIN.email, ADMIN.password);
  const plans = await api<Plan[]>(base, "GET", "/plans/all", undefined, token);
  const { id, createdAt: _c, updatedAt: _u, ...plan } = plans[0];
  await api(base, "PUT", `/plans/${id}`, { ...plan, ...flags }, token);
  return token;
}

/** The Simulator page's customer side: what the phone received, and writing as the customer. */
export const simulatorOutTexts = (page: Page) => page.getByTestId("simulator-out").allTextContents();
export async function simulatorSay(page: Page, body: string) {
  await page.getByTestId("simulator-body").fill(body);
  await page.getByTestId("simulator-send").click();
  await page.getByTestId("simulator-in").filter({ hasText: body }).last().waitFor({ timeout: 10_000 });
}
