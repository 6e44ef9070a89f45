import { api } from "./server.js";

type Connection = { id: number; provider: string; name: string; number: string };

/** What the customer reads at each step of the two-level tree `setUpTwoLevelBot` builds. */
export type BotTexts = {
  welcome: string;
  ventas: string;
  soporte: string;
  ventasGreeting: string;
  /** The message of option [1] Precios, whose one child is [1] Mayoristas. */
  precios: string;
  /** Mayoristas' message: a leaf, it ends the bot. */
  leaf: string;
};

/**
 * The seeded simulator connection with two areas in this order (Ventas first) and Ventas' tree
 * Precios → Mayoristas: the chatbot's list, option and leaf are then known texts. `reset` leaves the
 * connection without areas again.
 */
export async function setUpTwoLevelBot(base: string, token: string, texts: BotTexts) {
  const connections = await api<Connection[]>(base, "GET", "/whatsapp", undefined, token);
  const simulator = connections.find((c) => c.provider === "simulator");
  if (!simulator) throw new Error("no simulator connection");
  const post = <T>(path: string, body: unknown) => api<T>(base, "POST", path, body, token);
  const ventas = await post<{ id: number }>("/queue", {
    name: texts.ventas,
    color: "#0062B1",
    greetingMessage: texts.ventasGreeting,
    orderQueue: 1,
  });
  const soporte = await post<{ id: number }>("/queue", { name: texts.soporte, color: "#194D33", orderQueue: 2 });
  const precios = await post<{ id: number }>("/queue-options", { queueId: ventas.id, title: "Precios", message: texts.precios });
  await post("/queue-options", { queueId: ventas.id, parentId: precios.id, title: "Mayoristas", message: texts.leaf });
  const connection = (queueIds: number[], greetingMessage = "") => ({
    name: simulator.name,
    number: simulator.number || "5215500000000",
    provider: "simulator",
    isDefault: true,
    greetingMessage,
    queueIds,
  });
  await api(base, "PUT", `/whatsapp/${simulator.id}`, connection([ventas.id, soporte.id], texts.welcome), token);
  return {
    simulatorId: simulator.id,
    reset: () => api(base, "PUT", `/whatsapp/${simulator.id}`, connection([]), token),
  };
}
