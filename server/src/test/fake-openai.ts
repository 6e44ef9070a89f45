import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the fake endpoint received: its method, path, authorization header and JSON body. */
export type FakeAiRequest = { method: string; path: string; authorization: string | undefined; body: unknown };

/** What the fake answers a chat completion: a reply text, an HTTP error, or silence (a time-out). */
export type FakeAiBehaviour =
  | { reply: string }
  | { status: number; error: string }
  | { hang: true }
  | ((body: ChatBody) => { reply: string } | { status: number; error: string } | { hang: true });

export type ChatBody = {
  model: string;
  max_tokens?: number;
  temperature?: number;
  messages: { role: string; content: string }[];
};

/**
 * A local OpenAI-compatible endpoint for tests (127.0.0.1, a free port): `GET /models` lists the given
 * models, `POST /chat/completions` answers as told; every request is recorded. `baseUrl` is what a
 * prompt's base URL is set to.
 */
export async function startFakeOpenAi(opts: { models?: string[]; key?: string } = {}) {
  const requests: FakeAiRequest[] = [];
  let behaviour: FakeAiBehaviour = { reply: "Hola, ¿en qué te ayudo?" };
  const models = opts.models ?? ["gpt-4o-mini", "llama3"];
  const hanging = new Set<ServerResponse>();

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const body = raw ? JSON.parse(raw) : null;
    const path = (req.url ?? "").replace(/\?.*$/, "");
    requests.push({ method: req.method ?? "", path, authorization: req.headers.authorization, body });
    if (opts.key && req.headers.authorization !== `Bearer ${opts.key}`) {
      return json(res, 401, { error: { message: `Incorrect API key provided: ${req.headers.authorization?.slice(7) ?? ""}` } });
    }
    if (req.method === "GET" && path.endsWith("/models")) {
      return json(res, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "test" })),
      });
    }
    if (req.method === "POST" && path.endsWith("/chat/completions")) {
      const b = typeof behaviour === "function" ? behaviour(body as ChatBody) : behaviour;
      if ("hang" in b) {
        hanging.add(res);
        return;
      }
      if ("status" in b) return json(res, b.status, { error: { message: b.error } });
      return json(res, 200, {
        id: `chatcmpl-${requests.length}`,
        object: "chat.completion",
        created: Math.floor(Date.now() / 1000),
        model: (body as ChatBody).model,
        choices: [{ index: 0, message: { role: "assistant", content: b.reply }, finish_reason: "stop" }],
      });
    }
    json(res, 404, { error: { message: "not found" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** The chat completions received, in order. */
    chats: () => requests.filter((r) => r.path.endsWith("/chat/completions")).map((r) => r.body as ChatBody),
    answer(next: FakeAiBehaviour) {
      behaviour = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeOpenAi = Awaited<ReturnType<typeof startFakeOpenAi>>;
