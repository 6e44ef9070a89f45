import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeGraph, startFakeGraph } from "../../test/fake-graph.js";

/** The fake itself answers as Meta's Graph API does: the driver's tests and B/C/D's lean on it. */
describe("fake Graph server", () => {
  let fake: FakeGraph;
  beforeAll(async () => {
    fake = await startFakeGraph({ pageSize: 1 });
  });
  afterAll(() => fake.close());
  const auth = () => ({ authorization: `Bearer ${fake.accessToken}`, "content-type": "application/json" });

  it("answers a send with a wamid and records it", async () => {
    const res = await fetch(`${fake.baseUrl}/${fake.phoneNumberId}/messages`, {
      method: "POST",
      headers: auth(),
      body: JSON.stringify({ messaging_product: "whatsapp", to: "5491100000000", type: "text", text: { body: "hola" } }),
    });
    const body = (await res.json()) as { messages: { id: string }[] };
    expect(res.status).toBe(200);
    expect(body.messages[0].id).toMatch(/^wamid\./);
    expect(fake.sent().at(-1)?.text?.body).toBe("hola");
  });

  it("refuses a wrong token with Meta's 190", async () => {
    const res = await fetch(`${fake.baseUrl}/${fake.phoneNumberId}`, { headers: { authorization: "Bearer nope" } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(190);
  });

  it("uploads multipart media and serves it back", async () => {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", "image/png");
    form.set("file", new Blob([Buffer.from("png-bytes")], { type: "image/png" }), "a.png");
    const up = await fetch(`${fake.baseUrl}/${fake.phoneNumberId}/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${fake.accessToken}` },
      body: form,
    });
    const { id } = (await up.json()) as { id: string };
    expect(fake.uploads()).toContainEqual(expect.objectContaining({ id, fileName: "a.png", bytes: 9 }));
    const info = (await (await fetch(`${fake.baseUrl}/${id}`, { headers: auth() })).json()) as { url: string };
    const bytes = await (await fetch(info.url, { headers: auth() })).text();
    expect(bytes).toBe("png-bytes");
  });

  it("pages the templates and fails on request", async () => {
    const first = (await (
      await fetch(`${fake.baseUrl}/${fake.businessAccountId}/message_templates?limit=100`, { headers: auth() })
    ).json()) as {
      data: { name: string }[];
      paging: { next?: string };
    };
    expect(first.data).toHaveLength(1);
    expect(first.paging.next).toBeTruthy();
    fake.failNext(400, { code: 131047, message: "Re-engagement message" });
    const failed = await fetch(`${first.paging.next}`, { headers: auth() });
    expect(((await failed.json()) as { error: { code: number } }).error.code).toBe(131047);
  });
});
