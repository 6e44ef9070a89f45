/**
 * Typebot's HTTP chat API (docs.typebot.io, "Start chat" / "Continue chat"): a published bot is started
 * by its public id (the integration's slug) at `{url}/api/v1/typebots/{slug}/startChat`, and each reply
 * goes to `{url}/api/v1/sessions/{sessionId}/continueChat`. Bounded in time (the AI time-out) and size.
 */

/** One of Typebot's bubbles: text (rich text or markdown), image, video, audio, embed. */
export type TypebotMessage = { id?: string; type: string; content?: Record<string, unknown> };
/** What Typebot waits for next: absent when the conversation ended. */
export type TypebotInput = {
  id?: string;
  type: string;
  items?: { id?: string; content?: string; title?: string }[];
  options?: Record<string, unknown>;
};
export type TypebotReply = { sessionId?: string; messages: TypebotMessage[]; input?: TypebotInput | null };

/** Typebot refused the request (4xx): a reply it does not accept, a session it no longer knows. */
export class TypebotRejected extends Error {
  constructor(readonly status: number) {
    super(`typebot answered ${status}`);
  }
}
/** No usable answer: refused connection, time-out, 5xx, a body that is not its JSON. */
export class TypebotUnavailable extends Error {}

const MAX_BODY = 1_000_000;

export type TypebotCall = { baseUrl: string; timeoutMs: number };

function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}

async function post(call: TypebotCall, path: string, body: unknown): Promise<TypebotReply> {
  let res: Response;
  try {
    res = await fetch(endpoint(call.baseUrl, path), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(call.timeoutMs),
      redirect: "error",
    });
  } catch (err) {
    throw new TypebotUnavailable(err instanceof Error && err.name === "TimeoutError" ? "timed out" : "unreachable");
  }
  const text = await readBounded(res).catch(() => null);
  if (res.status >= 400 && res.status < 500) throw new TypebotRejected(res.status);
  if (!res.ok) throw new TypebotUnavailable(`status ${res.status}`);
  if (text === null) throw new TypebotUnavailable("body too large or cut off");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new TypebotUnavailable("not JSON");
  }
  if (!parsed || typeof parsed !== "object") throw new TypebotUnavailable("not an object");
  const reply = parsed as Record<string, unknown>;
  const messages = Array.isArray(reply.messages) ? (reply.messages as TypebotMessage[]).filter(isObject) : [];
  const input = isObject(reply.input) ? (reply.input as TypebotInput) : null;
  return { sessionId: typeof reply.sessionId === "string" ? reply.sessionId : undefined, messages, input };
}

const isObject = (v: unknown): boolean => typeof v === "object" && v !== null && !Array.isArray(v);

async function readBounded(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      throw new Error("too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A new chat on the published bot, the customer's message as its first reply. */
export async function startChat(call: TypebotCall, slug: string, text: string): Promise<TypebotReply & { sessionId: string }> {
  const reply = await post(call, `/api/v1/typebots/${encodeURIComponent(slug)}/startChat`, {
    message: { type: "text", text },
    isStreamEnabled: false,
    textBubbleContentFormat: "richText",
  });
  if (!reply.sessionId) throw new TypebotUnavailable("no sessionId");
  return { ...reply, sessionId: reply.sessionId };
}

/** The customer's reply in a running chat. */
export function continueChat(call: TypebotCall, sessionId: string, text: string): Promise<TypebotReply> {
  return post(call, `/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`, {
    message: { type: "text", text },
    textBubbleContentFormat: "richText",
  });
}
