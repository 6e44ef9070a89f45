import { Events } from "@charla/contracts";
import { and, eq } from "drizzle-orm";
import type { Services } from "../context.js";
import { messages, whatsapps } from "../db/schema/index.js";
import { handleInbound } from "../pipeline/inbound.js";
import { type ChannelDriver, type ChannelEvents, driverFactory, registerDriver } from "./driver.js";
import { SimulatorDriver } from "./simulator/driver.js";

registerDriver("simulator", (ctx) => new SimulatorDriver(ctx));

/**
 * The live driver of each connection on this process. (The Connections issue adds the lease that
 * keeps each session on exactly one process; until then the simulator needs none.)
 */
export class Sessions {
  private readonly drivers = new Map<number, { companyId: number; driver: ChannelDriver }>();
  private readonly starting = new Map<string, Promise<ChannelDriver | null>>();

  constructor(private readonly s: Services) {}

  /** The connection's driver, started on first use. */
  async driverFor(companyId: number, whatsappId: number): Promise<ChannelDriver | null> {
    const existing = this.drivers.get(whatsappId);
    // a connection id of another company finds nothing, even when its driver is running here
    if (existing) return existing.companyId === companyId ? existing.driver : null;
    // two requests at once start one driver, not two
    const key = `${companyId}:${whatsappId}`;
    let pending = this.starting.get(key);
    if (!pending) {
      pending = this.start(companyId, whatsappId).finally(() => this.starting.delete(key));
      this.starting.set(key, pending);
    }
    return pending;
  }

  private async start(companyId: number, whatsappId: number): Promise<ChannelDriver | null> {
    const [row] = await this.s.db
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.id, whatsappId), eq(whatsapps.companyId, companyId)));
    const factory = row && driverFactory(row.provider);
    if (!factory) return null;
    const driver = factory({ companyId, whatsappId, events: this.eventsFor(companyId, whatsappId) });
    this.drivers.set(whatsappId, { companyId, driver });
    await driver.connect();
    return driver;
  }

  async stopAll(): Promise<void> {
    const all = [...this.drivers.values()].map((d) => d.driver);
    this.drivers.clear();
    await Promise.allSettled(all.map((d) => d.disconnect()));
  }

  private eventsFor(companyId: number, whatsappId: number): ChannelEvents {
    const s = this.s;
    const own = (channelId: string) =>
      and(eq(messages.companyId, companyId), eq(messages.whatsappId, whatsappId), eq(messages.channelId, channelId));
    return {
      message: async (msg) => {
        await handleInbound(s, { companyId, whatsappId }, msg);
      },
      // TODO(#3): broadcast ack, revoke and edit changes to the ticket's audience
      ack: async (channelId, ack) => {
        await s.db.update(messages).set({ ack, updatedAt: new Date() }).where(own(channelId));
      },
      revoked: async (channelId) => {
        await s.db.update(messages).set({ isDeleted: true, updatedAt: new Date() }).where(own(channelId));
      },
      edited: async (channelId, body) => {
        await s.db.update(messages).set({ body, isEdited: true, updatedAt: new Date() }).where(own(channelId));
      },
      status: async (status) => {
        const [row] = await s.db
          .update(whatsapps)
          .set({ status, updatedAt: new Date() })
          .where(and(eq(whatsapps.id, whatsappId), eq(whatsapps.companyId, companyId)))
          .returning();
        if (row) {
          s.realtime.toCompany(companyId).emit(Events.whatsappSession(companyId), {
            action: "update",
            session: { id: row.id, status: row.status, updatedAt: row.updatedAt.toISOString() },
          });
        }
      },
    };
  }
}
