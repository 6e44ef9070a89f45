import { type ReactNode, useEffect, useState } from "react";
import type { Socket } from "socket.io-client";
import { useAuth } from "../auth/context";
import { connectSocket } from "./connect";
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
    const connection = connectSocket();
    setSocket(connection.socket);
    return () => {
      connection.close();
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
