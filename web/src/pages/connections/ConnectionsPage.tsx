import type { ConnectionView } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";
import { type SessionAction, useConnections, useDeleteConnection, useSessionAction } from "../../api/connections";
import { toastError } from "../../api/errors";
import { usePermission } from "../../auth/permissions";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { PageContainer } from "../../components/PageContainer";
import { ConnectionModal } from "./ConnectionModal";
import { ConnectionsTable } from "./ConnectionsTable";
import { QrModal } from "./QrModal";

type Confirming = { kind: "disconnect" | "delete"; connection: ConnectionView };

/**
 * core §2 Connections: table with status and session buttons (§4), connection modal (§5), QR modal,
 * confirmed disconnect and delete (§8). Status, QR and retries follow the session events live.
 */
export default function ConnectionsPage() {
  const { t } = useTranslation("connections");
  const canAdd = usePermission("connections-page:addConnection");
  const canUseSession = usePermission("connections-page:actionButtons");
  const canEdit = usePermission("connections-page:editOrDeleteConnection");
  const list = useConnections();
  const remove = useDeleteConnection();
  const session = useSessionAction();
  const [busyIds, setBusyIds] = useState<ReadonlySet<number>>(new Set());
  const [editing, setEditing] = useState<{ id: number | null } | null>(null);
  // Targets outlive their dialogs' closing animation so titles do not flicker empty.
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [qrOpen, setQrOpen] = useState(false);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);

  const connections = list.data ?? [];
  const qrConnection = qrFor === null ? null : (connections.find((c) => c.id === qrFor) ?? null);

  // core §8: a list that cannot load says so with one fixed text, whatever the cause.
  useEffect(() => {
    if (!list.isError) return;
    const text = t("common:feedback.loadList");
    toast.error(text, { toastId: text });
  }, [list.isError, t]);

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

  const ask = (kind: Confirming["kind"], connection: ConnectionView) => {
    setConfirming({ kind, connection });
    setConfirmOpen(true);
  };

  const confirm = async () => {
    if (!confirming) return;
    const { kind, connection } = confirming;
    if (kind === "disconnect") {
      // the row's button shows the call under way
      setConfirmOpen(false);
      await runSession(connection, "disconnect");
      return;
    }
    try {
      await remove.mutateAsync(connection.id);
      toast.success(t("toasts.deleted"));
    } catch (error) {
      toastError(error, t("common:feedback.operationFailed"));
    }
    setConfirmOpen(false);
  };

  const closeQr = useCallback(() => setQrOpen(false), []);
  const openQr = (connection: ConnectionView) => {
    setQrFor(connection.id);
    setQrOpen(true);
  };

  const name = confirming?.connection.name ?? "";
  return (
    <PageContainer
      title={t("title")}
      fill
      actions={
        canAdd && (
          <Button
            variant="contained"
            startIcon={<AddIcon />}
            onClick={() => setEditing({ id: null })}
            sx={{ flex: { xs: 1, sm: "none" }, height: 40, whiteSpace: "nowrap" }}
            data-testid="connections-add"
          >
            {t("add")}
          </Button>
        )
      }
    >
      <ConnectionsTable
        connections={connections}
        loading={list.isLoading}
        canUseSession={canUseSession}
        canEdit={canEdit}
        busyIds={busyIds}
        onQr={openQr}
        onRetry={(connection) => void runSession(connection, "retry")}
        onNewQr={(connection) => void runSession(connection, "newQr")}
        onDisconnect={(connection) => ask("disconnect", connection)}
        onEdit={(connection) => setEditing({ id: connection.id })}
        onDelete={(connection) => ask("delete", connection)}
      />
      {editing && <ConnectionModal open connectionId={editing.id} onClose={() => setEditing(null)} />}
      <QrModal open={qrOpen} connection={qrConnection} onClose={closeQr} />
      <ConfirmDialog
        open={confirmOpen}
        title={t(confirming?.kind === "disconnect" ? "confirmDisconnect.title" : "confirmDelete.title", { name })}
        confirmLabel={t(confirming?.kind === "disconnect" ? "confirmDisconnect.confirm" : "common:actions.delete")}
        busy={remove.isPending}
        onConfirm={() => void confirm()}
        onClose={() => setConfirmOpen(false)}
      >
        {t(confirming?.kind === "disconnect" ? "confirmDisconnect.message" : "confirmDelete.message")}
      </ConfirmDialog>
    </PageContainer>
  );
}
