import ConnectionsIcon from "@mui/icons-material/SyncAlt";
import Badge from "@mui/material/Badge";
import { useEffect, useState } from "react";
import { useConnections } from "../../api/connections";

/** core §9: the connections badge is evaluated 2 s after load, then follows the live statuses. */
export const CONNECTION_WARNING_DELAY_MS = 2000;

// Counted from the first time the menu showed the item, not from each mount: the narrow drawer
// mounts its menu again every time it opens.
let firstShownAt: number | null = null;

/** True when any connection is not CONNECTED (qrcode, PAIRING, DISCONNECTED, TIMEOUT, OPENING; core §2). */
export function useConnectionsWarning(): boolean {
  const list = useConnections();
  const [ready, setReady] = useState(() => firstShownAt !== null && Date.now() - firstShownAt >= CONNECTION_WARNING_DELAY_MS);
  useEffect(() => {
    if (ready) return;
    firstShownAt ??= Date.now();
    const timer = setTimeout(() => setReady(true), firstShownAt + CONNECTION_WARNING_DELAY_MS - Date.now());
    return () => clearTimeout(timer);
  }, [ready]);
  return ready && (list.data ?? []).some((connection) => connection.status !== "CONNECTED");
}

/** The Connections menu icon, with a warning dot while a connection needs attention. */
export function ConnectionsMenuIcon() {
  const warning = useConnectionsWarning();
  return (
    <Badge
      variant="dot"
      color="warning"
      invisible={!warning}
      slotProps={{ badge: (warning ? { "data-testid": "menu-connections-warning" } : {}) as object }}
    >
      <ConnectionsIcon />
    </Badge>
  );
}
