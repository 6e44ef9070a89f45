import { api } from "./server.js";
import { seededSimulator, setUpSimulator } from "./simulator.js";

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
  const simulator = await seededSimulator(base, token);
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
  await setUpSimulator(base, token, { greetingMessage: texts.welcome, queueIds: [ventas.id, soporte.id] });
  return {
    simulatorId: simulator.id,
    reset: () => setUpSimulator(base, token, { greetingMessage: "", queueIds: [] }),
  };
}
