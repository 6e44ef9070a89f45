import type { Server as HttpServer } from "node:http";
import { ClientEvents, Limits } from "@charla/contracts";
import { and, eq, inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { Server } from "socket.io";
import type { Db } from "../db/client.js";
import { companies, users } from "../db/schema/index.js";
import { type Principal, loadPrincipal } from "../auth/principal.js";
import type { TokenService } from "../auth/tokens.js";
import { companyUsable } from "../policies/company.js";
import { rooms } from "./rooms.js";

type Emitter = { emit: (event: string, payload: unknown) => void };

/**
 * What the rest of the server holds (`Services.realtime`): the job runner's sweep and shutdown. Nothing
 * outside realtime/ puts an event on the wire: services publish domain events and realtime/listeners
 * present them (only-emitter.test.ts keeps it so).
 */
export type RealtimeControl = {
  /**
   * Ends this node's sockets of companies that can no longer be used (deactivated, or past their due
   * date while connected); super users stay. The job runner calls it (jobs/company-sockets.ts);
   * returns how many it ended.
   */
  sweepCompanies(): Promise<number>;
  close(): Promise<void>;
};

/** The emitting side, for realtime/listeners: rooms are always per company, user or session. */
export type Realtime = RealtimeControl & {
  toCompany(companyId: number): Emitter;
  toUser(companyId: number, userId: number): Emitter;
  toSession(sessionId: string): Emitter;
  /** Several users of one company at once; a socket in more than one of the rooms gets the event once. */
  toUsers(companyId: number, userIds: number[]): Emitter;
  /** Everyone of the company but these users (who are told something else, e.g. with more detail). */
  toCompanyExcept(companyId: number, userIds: number[]): Emitter;
  /** Ends a session's sockets after `delayMs` (lets its last event reach the client first). */
  endSession(sessionId: string, delayMs?: number): void;
  /** Ends every socket of a company (on every node) but those of the given users (super users stay). */
  endCompany(companyId: number, keepUserIds?: number[]): void;
  io: Server;
};

const TICKET_STATUSES = new Set(["open", "pending", "closed", "group", "notification"]);

export async function createRealtime(opts: {
  server: HttpServer;
  db: Db;
  tokens: TokenService;
  redisUrl: string | null;
  log: FastifyBaseLogger;
}): Promise<Realtime> {
  const io = new Server(opts.server, {
    path: "/socket.io",
    pingInterval: Limits.socketPingMs,
    pingTimeout: Limits.socketPingMs,
    cors: { origin: false },
    serveClient: false,
  });

  const closers: (() => Promise<unknown>)[] = [];
  // a session ended just before shutdown: its timer must not fire on a closed Redis client (an
  // unhandled rejection), so close() cancels the ones still waiting
  const pendingEnds = new Set<NodeJS.Timeout>();
  if (opts.redisUrl) {
    const { createClient } = await import("redis");
    const { createAdapter } = await import("@socket.io/redis-adapter");
    const pub = createClient({ url: opts.redisUrl });
    const sub = pub.duplicate();
    pub.on("error", (err) => opts.log.error({ err: err.message }, "redis pub"));
    sub.on("error", (err) => opts.log.error({ err: err.message }, "redis sub"));
    await Promise.all([pub.connect(), sub.connect()]);
    io.adapter(createAdapter(pub, sub));
    closers.push(
      () => pub.quit().catch(() => undefined),
      () => sub.quit().catch(() => undefined),
    );
  }

  // Handshake: no token, no socket. The principal decides every room the socket may join.
  io.use(async (socket, next) => {
    try {
      // auth only: a token in the query string ends up in proxy and access logs (REST refuses it too)
      const token = socket.handshake.auth?.token;
      if (typeof token !== "string" || !token) throw new Error("ERR_SESSION_EXPIRED");
      const claims = await opts.tokens.verifyAccess(token);
      socket.data.user = await loadPrincipal(opts.db, claims);
      next();
    } catch (err) {
      next(new Error((err as { code?: string }).code ?? "ERR_SESSION_EXPIRED"));
    }
  });

  io.on("connection", (socket) => {
    const user = socket.data.user as Principal;
    const cid = user.companyId;
    socket.join([rooms.company(cid), rooms.user(cid, user.id), rooms.session(user.sessionId)]);
    void markOnline(opts.db, user, true);

    socket.on(ClientEvents.joinNotification, () => socket.join(rooms.notification(cid)));
    socket.on(ClientEvents.joinTickets, (status: unknown) => {
      if (typeof status === "string" && TICKET_STATUSES.has(status)) socket.join(rooms.tickets(cid, status));
    });
    socket.on(ClientEvents.leaveTickets, (status: unknown) => {
      if (typeof status === "string") socket.leave(rooms.tickets(cid, status));
    });
    socket.on(ClientEvents.joinChatBox, (ticketId: unknown) => {
      const id = Number(ticketId);
      // the room name carries the company, so another company's ticket id reaches nothing. Ticket
      // and message events are not sent to these rooms: they go to the users the ticket policy
      // allows (policies/tickets.ts ticketAudience), so joining a room shows no one else's ticket.
      if (Number.isInteger(id) && id > 0) socket.join(rooms.ticket(cid, id));
    });
    socket.on(ClientEvents.leaveChatBox, (ticketId: unknown) => {
      const id = Number(ticketId);
      if (Number.isInteger(id)) socket.leave(rooms.ticket(cid, id));
    });
    socket.on(ClientEvents.userStatus, () => void markOnline(opts.db, user, true));
    socket.on("disconnect", () => void onDisconnect(io, opts.db, user));
  });

  const to = (room: string): Emitter => ({ emit: (event, payload) => io.to(room).emit(event, payload) });

  async function sweepCompanies(): Promise<number> {
    const local = await io.local.fetchSockets();
    const ids = [...new Set(local.map((s) => (s.data.user as Principal).companyId))];
    if (!ids.length) return 0;
    const rows = await opts.db
      .select({ id: companies.id, status: companies.status, dueDate: companies.dueDate })
      .from(companies)
      .where(inArray(companies.id, ids));
    const usable = new Set(rows.filter(companyUsable).map((c) => c.id));
    let ended = 0;
    for (const s of local) {
      const user = s.data.user as Principal;
      if (usable.has(user.companyId) || user.super) continue;
      s.disconnect(true);
      ended++;
    }
    return ended;
  }

  return {
    io,
    toCompany: (cid) => to(rooms.company(cid)),
    toUser: (cid, uid) => to(rooms.user(cid, uid)),
    toSession: (sid) => to(rooms.session(sid)),
    toUsers: (cid, uids) => ({
      emit: (event, payload) => {
        if (uids.length) io.to(uids.map((uid) => rooms.user(cid, uid))).emit(event, payload);
      },
    }),
    toCompanyExcept: (cid, uids) => ({
      emit: (event, payload) =>
        io
          .to(rooms.company(cid))
          .except(uids.map((uid) => rooms.user(cid, uid)))
          .emit(event, payload),
    }),
    endSession: (sid, delayMs = 2000) => {
      const timer = setTimeout(() => {
        pendingEnds.delete(timer);
        io.in(rooms.session(sid)).disconnectSockets(true);
      }, delayMs).unref();
      pendingEnds.add(timer);
    },
    endCompany: (cid, keep = []) => {
      io.in(rooms.company(cid))
        .except(keep.map((uid) => rooms.user(cid, uid)))
        .disconnectSockets(true);
    },
    sweepCompanies,
    async close() {
      for (const timer of pendingEnds) clearTimeout(timer);
      pendingEnds.clear();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      for (const c of closers) await c();
    },
  };
}

async function markOnline(db: Db, user: Principal, online: boolean): Promise<void> {
  try {
    await db
      .update(users)
      .set({ online, lastSeenAt: new Date() })
      .where(and(eq(users.id, user.id), eq(users.companyId, user.companyId)));
  } catch {
    // presence is best effort; a closed database during shutdown is not an error worth raising
  }
}

/** Offline only when the user's last socket (on any node) is gone. */
async function onDisconnect(io: Server, db: Db, user: Principal): Promise<void> {
  try {
    const left = await io.in(rooms.user(user.companyId, user.id)).fetchSockets();
    if (left.length === 0) await markOnline(db, user, false);
  } catch {
    // adapter gone during shutdown
  }
}
