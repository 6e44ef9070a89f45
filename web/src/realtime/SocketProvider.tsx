import { type ReactNode, useEffect, useState } from "react";
import type { Socket } from "socket.io-client";
import { useAuth } from "../auth/context";
import type { connectSocket } from "./connect";
import { SocketContext } from "./context";
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
  const [socket, setSocket] = useState<Socket | null>(null);

  useEffect(() => {
    if (userId === null || companyId === null) return;
    // socket.io's client is its own chunk, fetched once the shell is up: the first screen's requests
    // (the ticket lists) do not wait for it
    let connection: ReturnType<typeof connectSocket> | null = null;
    let ended = false;
    void import("./connect").then(
      (module) => {
        if (ended) return;
        connection = module.connectSocket();
        setSocket(connection.socket);
      },
      () => undefined,
    );
    return () => {
      ended = true;
      connection?.close();
      setSocket(null);
    };
  }, [userId, companyId]);

  return (
    <SocketContext.Provider value={socket}>
      {socket && <CompanyEvents />}
      {children}
    </SocketContext.Provider>
  );
}
