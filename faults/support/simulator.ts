/** One customer message as the simulator's phone sends it; `id` is the channel id a replay repeats. */
export type SimulatorEvent = { id: string; number: string; name: string; body: string };

/** What one delivery came to: the server's answer, or the connection failing under it. */
export type Delivery =
  | { kind: "answered"; status: number; stored: boolean; ticketId: number | null; body: string }
  | { kind: "failed"; error: string };

/**
 * Delivers one event through POST /simulator/{whatsappId}/inbound, the same pipeline a real phone's
 * message takes. Never throws: a crash of the server shows as `failed`.
 */
export async function deliver(url: string, token: string, whatsappId: number, event: SimulatorEvent): Promise<Delivery> {
  try {
    const res = await fetch(`${url}/api/v1/simulator/${whatsappId}/inbound`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(event),
    });
    const body = await res.text();
    const parsed = res.ok ? (JSON.parse(body) as { stored: boolean; ticketId: number | null }) : null;
    return { kind: "answered", status: res.status, stored: parsed?.stored ?? false, ticketId: parsed?.ticketId ?? null, body };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { kind: "failed", error: cause?.code ?? cause?.message ?? String(err) };
  }
}
