import type { FastifyInstance } from "fastify";
import type { contacts, queues, tickets, users, whatsapps } from "../db/schema/index.js";
import { whatsappQueues } from "../db/schema/index.js";
import {
  type BuiltCompany,
  type BuiltUser,
  type Session,
  addUserQueue,
  buildCompany,
  buildContact,
  buildQueue,
  buildTicket,
  buildUser,
  buildWhatsapp,
  login,
} from "./factories.js";

type Queue = typeof queues.$inferSelect;
type Connection = typeof whatsapps.$inferSelect;
type ConnectionValues = Partial<typeof whatsapps.$inferInsert>;

/** An area by its name, or its columns; `offered`: the scenario's connection offers it (its chatbot lists it). */
export type QueueSpec = string | (Partial<typeof queues.$inferInsert> & { offered?: boolean });

/** A user of the company (profile "user" unless told) serving the named areas; logged in unless `login: false`. */
export type AgentSpec<Q extends string> = Partial<Omit<typeof users.$inferInsert, "companyId">> & {
  queues?: NoInfer<Q>[];
  login?: boolean;
};

export type ScenarioSpec<Q extends string, A extends string> = {
  company?: Parameters<typeof buildCompany>[1];
  /**
   * Over the default connection: a connected simulator, the company's default. A function gets the
   * areas (e.g. for the one queue-less tickets are routed to); `false`: no connection at all.
   */
  connection?: ConnectionValues | ((queues: Record<Q, Queue>) => ConnectionValues) | false;
  queues?: Record<Q, QueueSpec>;
  agents?: Record<A, AgentSpec<Q>>;
  /** `false`: nobody logs in, the admin included (tests that never call the API). */
  login?: boolean;
};

type ScenarioBase<A extends string> = {
  companyId: number;
  company: BuiltCompany;
  /** The company admin's session. */
  admin: Session;
  connection: Connection;
  /** Each agent's session: `call(w.as.ana, "GET", "/tickets")`. */
  as: Record<A, Session>;
  /** A contact whose number the scenario made: a random one could hold the digits a test searches for. */
  contact: (values?: Partial<typeof contacts.$inferInsert>) => ReturnType<typeof buildContact>;
  /** A ticket on the connection, in the first area listed unless told, for a new contact unless given one. */
  ticket: (
    values?: Partial<typeof tickets.$inferInsert>,
    contact?: Partial<typeof contacts.$inferInsert>,
  ) => ReturnType<typeof buildTicket>;
};

/** The areas and agents stand beside the rest by their keys (`w.sales.id`, `w.ana.id`), as a test names them. */
export type Scenario<Q extends string, A extends string> = ScenarioBase<A> & Record<Q, Queue> & Record<A, BuiltUser>;

/**
 * What the scenario left out reads as a getter that says so, where a plain undefined would fail far
 * from the cause; not enumerable, so that `{ ...w }` copies what is there and never throws.
 */
function present<T extends object>(target: T, key: string, value: unknown, missing: string) {
  if (value !== undefined) return Object.defineProperty(target, key, { value, enumerable: true });
  return Object.defineProperty(target, key, {
    enumerable: false,
    get() {
      throw new Error(`scenario: ${missing}`);
    },
  });
}

/**
 * One company as a test needs it: `scenario(app, { queues: { sales: "Ventas" }, agents: { ana: {
 * name: "Ana", queues: ["sales"] } } })` gives `w.sales`, `w.ana` and `w.as.ana` (her session). Users
 * share the factories' one password hash; logins go through the real endpoint.
 */
export async function scenario<Q extends string = never, A extends string = never>(
  app: FastifyInstance,
  spec: ScenarioSpec<Q, A> = {},
): Promise<Scenario<Q, A>> {
  const company = await buildCompany(app, spec.company);
  const companyId = company.id;
  const areas = {} as Record<Q, Queue>;
  for (const [key, value] of Object.entries<QueueSpec>(spec.queues ?? ({} as Record<Q, QueueSpec>))) {
    const { offered: _, ...values } = typeof value === "string" ? { name: value } : value;
    areas[key as Q] = await buildQueue(app, companyId, values);
  }
  const connectionValues = typeof spec.connection === "function" ? spec.connection(areas) : spec.connection;
  const connection =
    connectionValues === false
      ? undefined
      : await buildWhatsapp(app, companyId, { provider: "simulator", status: "CONNECTED", isDefault: true, ...connectionValues });
  for (const [key, value] of Object.entries<QueueSpec>(spec.queues ?? ({} as Record<Q, QueueSpec>))) {
    if (typeof value === "string" || !value.offered) continue;
    if (!connection) throw new Error("scenario: an offered area needs a connection");
    await app.charla.db.insert(whatsappQueues).values({ companyId, whatsappId: connection.id, queueId: areas[key as Q].id });
  }

  const users = {} as Record<A, BuiltUser>;
  const loggingIn: [string, BuiltUser][] = [];
  for (const [key, value] of Object.entries<AgentSpec<Q>>(spec.agents ?? ({} as Record<A, AgentSpec<Q>>))) {
    const { queues: served = [], login: logsIn = true, ...values } = value;
    const user = await buildUser(app, companyId, values);
    for (const q of served) await addUserQueue(app, companyId, user.id, areas[q].id);
    users[key as A] = user;
    if (logsIn && spec.login !== false) loggingIn.push([key, user]);
  }
  const [adminSession, logged] = await Promise.all([
    spec.login === false ? undefined : login(app, company.admin),
    Promise.all(loggingIn.map(async ([key, u]) => [key, await login(app, u)] as const)).then((all) => new Map(all)),
  ]);

  let made = 0;
  const contact: ScenarioBase<A>["contact"] = (values = {}) =>
    buildContact(app, companyId, { number: `5491100${String(++made).padStart(5, "0")}`, ...values });
  const firstArea = Object.values<Queue>(areas)[0];
  const ticket: ScenarioBase<A>["ticket"] = async (values = {}, contactValues = {}) =>
    buildTicket(app, companyId, {
      whatsappId: connection?.id ?? null,
      queueId: firstArea?.id ?? null,
      ...values,
      contactId: values.contactId ?? (await contact(contactValues)).id,
    });

  const sessions = {} as Record<A, Session>;
  for (const key of Object.keys(users)) present(sessions, key, logged.get(key), `${key} did not log in (login: false)`);
  const result = { companyId, company, as: sessions, contact, ticket } as unknown as Scenario<Q, A>;
  for (const [key, value] of [...Object.entries(areas), ...Object.entries(users)]) {
    if (key in result || key === "admin" || key === "connection") throw new Error(`scenario: "${key}" names two things`);
    Object.assign(result, { [key]: value });
  }
  present(result, "admin", adminSession, "the admin did not log in (login: false)");
  present(result, "connection", connection, "no connection (connection: false)");
  return result;
}
