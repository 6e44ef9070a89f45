import type { ConnectionView } from "@charla/contracts";
import DefaultIcon from "@mui/icons-material/CheckCircle";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import dayjs from "../../lib/dayjs";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { ListTable, RowActions } from "../../components/ListTable";
import { formatPhoneNumber } from "../../lib/phone";
import { ConnectionStatusIcon, StatusReasonText } from "./ConnectionStatusIcon";
import { SessionButtons } from "./SessionButtons";

/** core §2 Connections page: last update as dd/MM/yy HH:mm. */
const UPDATED_FORMAT = "DD/MM/YY HH:mm";

type Props = {
  connections: ConnectionView[];
  loading: boolean;
  /** core §6 connections-page:actionButtons: the session column. */
  canUseSession: boolean;
  /** core §6 connections-page:editOrDeleteConnection. */
  canEdit: boolean;
  /** Connections whose session call is under way. */
  busyIds: ReadonlySet<number>;
  onQr: (connection: ConnectionView) => void;
  onRetry: (connection: ConnectionView) => void;
  onNewQr: (connection: ConnectionView) => void;
  onDisconnect: (connection: ConnectionView) => void;
  onEdit: (connection: ConnectionView) => void;
  onDelete: (connection: ConnectionView) => void;
};

const noScroll = () => undefined;

/** Connection names are company data: rendered only as React text. */
export function ConnectionsTable({
  connections,
  loading,
  canUseSession,
  canEdit,
  busyIds,
  onQr,
  onRetry,
  onNewQr,
  onDisconnect,
  onEdit,
  onDelete,
}: Props) {
  const { t } = useTranslation("connections");
  const theme = useTheme();
  // Under 600 px the status icon, the default flag and the session buttons join the name; the last update goes.
  const narrow = useMediaQuery(theme.breakpoints.down("sm"));
  const columns = [
    { label: t("columns.name") },
    ...(narrow ? [] : [{ label: t("columns.status") }]),
    ...(canUseSession && !narrow ? [{ label: t("columns.session") }] : []),
    ...(narrow ? [] : [{ label: t("columns.updatedAt") }, { label: t("columns.default") }]),
  ];

  // core §2: a connection waiting for its QR to be read opens the QR modal from anywhere on its row.
  const rowClick = (connection: ConnectionView) => (event: MouseEvent<HTMLTableRowElement>) => {
    if ((event.target as HTMLElement).closest("button, a")) return;
    if (connection.status === "qrcode" || connection.status === "PAIRING") onQr(connection);
  };

  return (
    <ListTable
      testId="connections"
      columns={columns}
      actionsLabel={t("columns.actions")}
      loading={loading}
      empty={connections.length === 0 ? t("empty") : null}
      scrollRef={null}
      onScroll={noScroll}
    >
      {connections.map((connection) => {
        const number = formatPhoneNumber(connection.number);
        const waitingQr = connection.status === "qrcode" || connection.status === "PAIRING";
        const sessionButtons = canUseSession && (
          <SessionButtons
            connection={connection}
            busy={busyIds.has(connection.id)}
            onQr={() => onQr(connection)}
            onRetry={() => onRetry(connection)}
            onNewQr={() => onNewQr(connection)}
            onDisconnect={() => onDisconnect(connection)}
          />
        );
        const defaultFlag = connection.isDefault && (
          <Tooltip title={t("defaultFlag")}>
            <DefaultIcon
              color="success"
              fontSize="small"
              aria-label={t("defaultFlag")}
              data-testid="connection-is-default"
              sx={{ verticalAlign: "middle", display: "block" }}
            />
          </Tooltip>
        );
        return (
          <TableRow
            key={connection.id}
            hover
            data-testid="connection-row"
            data-connection-id={connection.id}
            data-status={connection.status}
            data-default={connection.isDefault}
            onClick={rowClick(connection)}
            sx={waitingQr ? { cursor: "pointer" } : undefined}
          >
            <TableCell sx={{ minWidth: 120 }}>
              <Box sx={{ display: "flex", alignItems: narrow ? "flex-start" : "center", gap: 1 }}>
                {narrow && <ConnectionStatusIcon status={connection.status} reason={connection.statusReason} />}
                <Box sx={{ minWidth: 0, flex: 1 }}>
                  <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", columnGap: 1, rowGap: 0.5 }}>
                    <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-word" }} data-testid="connection-label">
                      {connection.name}
                    </Typography>
                    {connection.provider === "simulator" && (
                      <Chip
                        label={t("simulator")}
                        size="small"
                        color="info"
                        variant="outlined"
                        sx={{ height: 20, fontSize: 11 }}
                        data-testid="connection-simulator-chip"
                      />
                    )}
                    {narrow && defaultFlag}
                  </Box>
                  {number && (
                    <Typography variant="caption" component="div" sx={{ color: "text.secondary", whiteSpace: "nowrap" }}>
                      {number}
                    </Typography>
                  )}
                  {narrow && <StatusReasonText reason={connection.statusReason} />}
                  {narrow && sessionButtons && <Box sx={{ mt: 1 }}>{sessionButtons}</Box>}
                </Box>
              </Box>
            </TableCell>
            {!narrow && (
              <TableCell>
                <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
                  <ConnectionStatusIcon status={connection.status} reason={connection.statusReason} />
                  <StatusReasonText reason={connection.statusReason} />
                </Box>
              </TableCell>
            )}
            {canUseSession && !narrow && <TableCell>{sessionButtons}</TableCell>}
            {!narrow && (
              <TableCell sx={{ whiteSpace: "nowrap" }} data-testid="connection-updated">
                {dayjs(connection.updatedAt).format(UPDATED_FORMAT)}
              </TableCell>
            )}
            {!narrow && <TableCell>{defaultFlag}</TableCell>}
            {canEdit ? (
              <RowActions prefix="connection" onEdit={() => onEdit(connection)} onDelete={() => onDelete(connection)} />
            ) : (
              <TableCell />
            )}
          </TableRow>
        );
      })}
    </ListTable>
  );
}
