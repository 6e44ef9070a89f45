import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the fake received: which call, its slug or session, and the customer's text. */
export type TypebotCallSeen = { kind: "start" | "continue"; slug?: string; sessionId?: string; text: string };
/** What the fake answers a call: a status and a body shaped like Typebot's, or `hang` to never answer. */
export type FakeAnswer = { status?: number; body?: unknown; hang?: boolean };

/** A text bubble in Typebot's rich-text form: one paragraph per string. */
export const textBubble = (...paragraphs: (string | object[])[]) => ({
  id: `m${Math.random().toString(36).slice(2, 8)}`,
  type: "text",
  content: {
    type: "richText",
    richText: paragraphs.map((p) => ({ type: "p", children: typeof p === "string" ? [{ text: p }] : p })),
  },
});
export const imageBubble = (url: string) => ({ id: "img", type: "image", content: { url } });
export const choiceInput = (...labels: string[]) => ({
  id: "choice",
  type: "choice input",
  items: labels.map((content, i) => ({ id: `i${i}`, content, outgoingEdgeId: `e${i}` })),
  options: {},
});
export const textInput = () => ({ id: "txt", type: "text input", options: { labels: { placeholder: "Escribe..." } } });

/**
 * A local stand-in for Typebot's chat API (`/api/v1/typebots/{slug}/startChat`,
 * `/api/v1/sessions/{id}/continueChat`), answering from a script: each call is recorded and answered
 * by `answer`, which the test swaps as the conversation goes.
 */
export async function fakeTypebot(answer: (call: TypebotCallSeen, n: number) => FakeAnswer) {
  const calls: TypebotCallSeen[] = [];
  const hanging: ServerResponse[] = [];
  let sessions = 0;
  const state = { answer };
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: { message?: { text?: string } | string } = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    } catch {
      // answered below as Typebot would: 400
    }
    const text = typeof body.message === "string" ? body.message : (body.message?.text ?? "");
    const start = /^\/api\/v1\/typebots\/([^/]+)\/startChat$/.exec(req.url ?? "");
    const cont = /^\/api\/v1\/sessions\/([^/]+)\/continueChat$/.exec(req.url ?? "");
    if (req.method !== "POST" || (!start && !cont)) {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ message: "Not found" }));
      return;
    }
    const call: TypebotCallSeen = start
      ? { kind: "start", slug: decodeURIComponent(start[1]), text }
      : { kind: "continue", sessionId: decodeURIComponent(cont?.[1] ?? ""), text };
    calls.push(call);
    const a = state.answer(call, calls.length);
    if (a.hang) {
      hanging.push(res);
      return;
    }
    let out = a.body ?? { messages: [] };
    if (call.kind === "start" && a.status === undefined && typeof out === "object" && out && !("sessionId" in out)) {
      sessions += 1;
      out = { sessionId: `sess-${sessions}`, typebot: { id: "tb", theme: {}, settings: {} }, ...out };
    }
    res.writeHead(a.status ?? 200, { "content-type": "application/json" }).end(JSON.stringify(out));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    set answer(fn: (call: TypebotCallSeen, n: number) => FakeAnswer) {
      state.answer = fn;
    },
    close: async () => {
      for (const r of hanging) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
