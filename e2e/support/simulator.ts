import { api } from "./server.js";

export type SimulatorConnection = { id: number; provider: string; name: string; number: string };

/** The seeded Simulator connection (every fresh server has one). */
export async function seededSimulator(base: string, token: string): Promise<SimulatorConnection> {
  const connections = await api<SimulatorConnection[]>(base, "GET", "/whatsapp", undefined, token);
  const simulator = connections.find((c) => c.provider === "simulator");
  if (!simulator) throw new Error("no simulator connection");
  return simulator;
}

/**
 * The seeded Simulator saved with these settings (its areas as `queueIds`, a greeting, a prompt…) as the
 * connection dialog saves it, the default connection still.
 */
export async function setUpSimulator(
  base: string,
  token: string,
  settings: Record<string, unknown>,
): Promise<SimulatorConnection> {
  const simulator = await seededSimulator(base, token);
  await api(
    base,
    "PUT",
    `/whatsapp/${simulator.id}`,
    { name: simulator.name, number: simulator.number || "5215500000000", provider: "simulator", isDefault: true, ...settings },
    token,
  );
  return simulator;
}
