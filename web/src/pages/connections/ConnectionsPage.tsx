import type { ConnectionView } from "@charla/contracts";
import DefaultIcon from "@mui/icons-material/CheckCircle";
import LinkIcon from "@mui/icons-material/Link";
import TokenIcon from "@mui/icons-material/VpnKeyOutlined";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ListState } from "../../api/collection";
import { type SessionAction, useConnections, useDeleteConnection, useSessionAction } from "../../api/connections";
import { toastError } from "../../api/errors";
import { usePermission } from "../../auth/permissions";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { type Column, ListPage } from "../../components/list-kit/ListPage";
import { formatShortDateTime } from "../../lib/company-time";
import { formatPhoneNumber } from "../../lib/phone";
import { toast } from "../../lib/toast";
import { ApiTokenDialog } from "./ApiTokenDialog";
import { ConnectionModal } from "./ConnectionModal";
import { ConnectionStatusIcon, StatusReasonText } from "./ConnectionStatusIcon";
import { QrModal } from "./QrModal";
import { SessionButtons } from "./SessionButtons";
import { WhatsappLinkDialog } from "./WhatsappLinkDialog";

const waitingQr = (connection: ConnectionView) => connection.status === "qrcode" || connection.status === "PAIRING";

/** The chip beside a connection's name that tells its channel (WhatsApp Web, the default, has none). */
const PROVIDER_CHIPS = {
  simulator: { label: "simulator", color: "info" },
  cloud: { label: "cloud.chip", color: "success" },
} as const;

/** Every connection at once (a company has a handful), kept live by the connection events. */
function useConnectionRows(): ListState<ConnectionView> {
  const list = useConnections();
  return {
    items: list.data ?? [],
    hasMore: false,
    loadMore: () => undefined,
    loading: list.isLoading,
    fetching: list.isFetching,
    isError: list.isError,
  };
}

/**
 * core §2 Connections: table with status and session buttons (§4), connection modal (§5), QR modal,
 * confirmed disconnect and delete (§8). Status, QR and retries follow the session events live.
 * Connection names are company data: rendered only as React text.
 */
export default function ConnectionsPage() {
  const { t } = useTranslation("connections");
  const canAdd = usePermission("connections-page:addConnection");
  const canUseSession = usePermission("connections-page:actionButtons");
  const canEdit = usePermission("connections-page:editOrDeleteConnection");
  const canUseApi = usePermission("external-api.view");
  // Under 600 px the status icon, the default flag and the session buttons join the name; the last update goes.
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  const connections = useConnections();
  const remove = useDeleteConnection();
  const session = useSessionAction();
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(new Set());
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  // Targets outlive their dialogs' closing animation so titles do not flicker empty.
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [qrOpen, setQrOpen] = useState(false);
  const [disconnecting, setDisconnecting] = useState<ConnectionView | null>(null);
  const [disconnectOpen, setDisconnectOpen] = useState(false);
  const [linkFor, setLinkFor] = useState<ConnectionView | null>(null);
  const [tokenFor, setTokenFor] = useState<ConnectionView | null>(null);
  const qrConnection = qrFor === null ? null : (connections.data?.find((c) => c.id === qrFor) ?? null);

  const runSession = async (connection: ConnectionView, action: SessionAction) => {
    setBusyIds((ids) => new Set(ids).add(connection.id));
    try {
      const result = await session.mutateAsync({ id: connection.id, action });
      if (action === "disconnect") toast.success(t("toasts.disconnected"));
      // the new QR shows as soon as the session sends it (a channel without QR is connected at once)
      if (action === "newQr" && result.status !== "CONNECTED") {
        setQrFor(connection.id);
        setQrOpen(true);
      }
    } catch (error) {
      toastError(error, t("common:feedback.operationFailed"));
    } finally {
      setBusyIds((ids) => {
        const next = new Set(ids);
        next.delete(connection.id);
        return next;
      });
    }
  };

  const closeQr = useCallback(() => setQrOpen(false), []);
  const openQr = (connection: ConnectionView) => {
    setQrFor(connection.id);
    setQrOpen(true);
  };

  const sessionButtons = (connection: ConnectionView) =>
    canUseSession && (
      <SessionButtons
        connection={connection}
        busy={busyIds.has(connection.id)}
        onQr={() => openQr(connection)}
        onRetry={() => void runSession(connection, "retry")}
        onNewQr={() => void runSession(connection, "newQr")}
        onDisconnect={() => {
          setDisconnecting(connection);
          setDisconnectOpen(true);
        }}
      />
    );
  const defaultFlag = (connection: ConnectionView) =>
    connection.isDefault && (
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

  const nameCell = (connection: ConnectionView) => {
    const number = formatPhoneNumber(connection.number);
    const buttons = narrow && sessionButtons(connection);
    return (
      <Box sx={{ display: "flex", alignItems: narrow ? "flex-start" : "center", gap: 1, minWidth: 120 }}>
        {narrow && <ConnectionStatusIcon connection={connection} />}
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", columnGap: 1, rowGap: 0.5 }}>
            <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-word" }} data-testid="connection-label">
              {connection.name}
            </Typography>
            {connection.provider !== "beta" && (
              <Chip
                label={t(PROVIDER_CHIPS[connection.provider].label)}
                size="small"
                color={PROVIDER_CHIPS[connection.provider].color}
                variant="outlined"
                sx={{ height: 20, fontSize: 11 }}
                data-testid={`connection-${connection.provider}-chip`}
              />
            )}
            {narrow && defaultFlag(connection)}
          </Box>
          {number && (
            <Typography variant="caption" component="div" sx={{ color: "text.secondary", whiteSpace: "nowrap" }}>
              {number}
            </Typography>
          )}
          {narrow && <StatusReasonText connection={connection} />}
          {buttons && <Box sx={{ mt: 1 }}>{buttons}</Box>}
        </Box>
      </Box>
    );
  };

  const columns: Column<ConnectionView>[] = [
    { label: t("columns.name"), cell: nameCell },
    ...(narrow
      ? []
      : [
          {
            label: t("columns.status"),
            cell: (connection: ConnectionView) => (
              <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
                <ConnectionStatusIcon connection={connection} />
                <StatusReasonText connection={connection} />
              </Box>
            ),
          },
          ...(canUseSession ? [{ label: t("columns.session"), cell: sessionButtons }] : []),
          {
            label: t("columns.updatedAt"),
            cell: (connection: ConnectionView) => (
              <Box sx={{ whiteSpace: "nowrap" }} data-testid="connection-updated">
                {formatShortDateTime(connection.updatedAt)}
              </Box>
            ),
          },
          { label: t("columns.default"), cell: defaultFlag },
        ]),
  ];

  return (
    <ListPage<ConnectionView>
      title={t("title")}
      testId="connections"
      useRows={useConnectionRows}
      addLabel={t("add")}
      onAdd={canAdd ? () => setEditing({ id: null }) : undefined}
      actionsLabel={t("columns.actions")}
      empty={() => t("empty")}
      rowTestId="connection"
      rowData={(connection) => ({
        "data-connection-id": connection.id,
        "data-status": connection.status,
        "data-default": connection.isDefault,
      })}
      // core §2: a connection waiting for its QR to be read opens the QR modal from anywhere on its row
      onRowClick={(connection) => waitingQr(connection) && openQr(connection)}
      rowClickable={waitingQr}
      onEdit={canEdit ? (connection) => setEditing({ id: connection.id }) : undefined}
      remove={
        canEdit
          ? {
              title: (connection) => t("confirmDelete.title", { name: connection.name }),
              message: t("confirmDelete.message"),
              run: (connection) => remove.mutateAsync(connection.id),
              done: t("toasts.deleted"),
            }
          : undefined
      }
      rowExtra={(connection) => (
        <>
          {canUseApi && (
            <Tooltip title={t("apiToken.button")}>
              <IconButton
                size="small"
                aria-label={t("apiToken.button")}
                onClick={() => setTokenFor(connection)}
                data-testid="connection-api-token"
              >
                <TokenIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
          <Tooltip title={t("link.button")}>
            <IconButton
              size="small"
              aria-label={t("link.button")}
              onClick={() => setLinkFor(connection)}
              data-testid="connection-link"
            >
              <LinkIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </>
      )}
      columns={columns}
    >
      {tokenFor && <ApiTokenDialog key={tokenFor.id} connection={tokenFor} onClose={() => setTokenFor(null)} />}
      {linkFor && <WhatsappLinkDialog key={linkFor.id} connection={linkFor} onClose={() => setLinkFor(null)} />}
      {editing && <ConnectionModal open connectionId={editing.id} onClose={() => setEditing(null)} />}
      <QrModal open={qrOpen} connection={qrConnection} onClose={closeQr} />
      <ConfirmDialog
        open={disconnectOpen}
        title={t("confirmDisconnect.title", { name: disconnecting?.name ?? "" })}
        confirmLabel={t("confirmDisconnect.confirm")}
        onConfirm={() => {
          // the row's button shows the call under way
          setDisconnectOpen(false);
          if (disconnecting) void runSession(disconnecting, "disconnect");
        }}
        onClose={() => setDisconnectOpen(false)}
      >
        {t("confirmDisconnect.message")}
      </ConfirmDialog>
    </ListPage>
  );
}
