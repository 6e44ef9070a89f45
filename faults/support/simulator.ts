import { Agent, request } from "node:http";

/** One customer message as the simulator's phone sends it; `id` is the channel id a replay repeats. */
export type SimulatorEvent = { id: string; number: string; name: string; body: string };

/** What one delivery came to: the server's answer, or the connection failing under it. */
export type Delivery =
  | { kind: "answered"; status: number; stored: boolean; ticketId: number | null; body: string }
  | { kind: "failed"; error: string };

// node:http rather than fetch: the harness shares 2 cores with the server it loads, and fetch took more
// than twice the client CPU (17 s against 7 s for the 21k requests of inbound-replay)
const agent = new Agent({ keepAlive: true });

/**
 * Delivers one event through POST /simulator/{whatsappId}/inbound, the same pipeline a real phone's
 * message takes. Never throws: a crash of the server shows as `failed`.
 */
export function deliver(url: string, token: string, whatsappId: number, event: SimulatorEvent): Promise<Delivery> {
  const payload = JSON.stringify(event);
  return new Promise((resolve) => {
    const req = request(
      `${url}/api/v1/simulator/${whatsappId}/inbound`,
      {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(payload),
          authorization: `Bearer ${token}`,
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("error", (err: NodeJS.ErrnoException) => resolve({ kind: "failed", error: err.code ?? err.message }));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          // an answer cut off by the kill is a failed delivery, not a server's reply
          if (!res.complete) return resolve({ kind: "failed", error: "response cut off" });
          let parsed: { stored?: boolean; ticketId?: number | null } | null = null;
          try {
            parsed = status >= 200 && status < 300 ? JSON.parse(body) : null;
          } catch {
            // a 2xx that is not JSON stays an answer with its body, which the test reports as unexpected
          }
          resolve({ kind: "answered", status, stored: parsed?.stored === true, ticketId: parsed?.ticketId ?? null, body });
        });
      },
    );
    req.on("error", (err: NodeJS.ErrnoException) => resolve({ kind: "failed", error: err.code ?? err.message }));
    req.end(payload);
  });
}
