import { type ReactNode, useEffect, useState } from "react";
import { useAuth } from "../auth/context";
import type { Connection } from "./connect";
import { SocketContext } from "./context";
import { takeEarlyConnection } from "./early";
import { useCompanyEvents } from "./use-company-events";

function CompanyEvents() {
  useCompanyEvents();
  return null;
}

/** Connects while someone is logged in; a different user or company gets a fresh connection. */
export function SocketProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const userId = user?.id ?? null;
  const companyId = user?.companyId ?? null;
  const [connection, setConnection] = useState<Connection | null>(null);
  const socket = connection?.socket ?? null;

  useEffect(() => {
    if (userId === null || companyId === null) return;
    // socket.io's client is its own chunk: the first screen's requests do not wait for it. A page load
    // with a stored session connected already (early.ts), so the first lists were read after the join
    let current: Connection | null = null;
    let ended = false;
    const made = takeEarlyConnection() ?? import("./connect").then((module) => module.connectSocket());
    void made
      .then((ready) => ready ?? import("./connect").then((module) => module.connectSocket()))
      .then(
        (ready) => {
          if (ended) {
            ready.close();
            return;
          }
          current = ready;
          setConnection(ready);
        },
        () => undefined,
      );
    return () => {
      ended = true;
      current?.close();
      setConnection(null);
    };
  }, [userId, companyId]);

  // after the children's effects of the same render: their listeners are on the socket by now
  useEffect(() => {
    connection?.release();
  }, [connection]);

  return (
    <SocketContext.Provider value={socket}>
      {socket && <CompanyEvents />}
      {children}
    </SocketContext.Provider>
  );
}
