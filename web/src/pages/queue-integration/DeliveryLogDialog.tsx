import type { DeliveryStatus, DeliveryView, IntegrationView } from "@charla/contracts";
import SendIcon from "@mui/icons-material/Send";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useTranslation } from "react-i18next";
import { toastError } from "../../api/errors";
import { useDeliveries, useTestEvent } from "../../api/integrations";
import { SectionLoader } from "../../components/FullPageLoader";
import { formatDateTime } from "../../lib/company-time";
import { toast } from "../../lib/toast";

const tone: Record<DeliveryStatus, "default" | "success" | "warning" | "error"> = {
  pending: "default",
  delivered: "success",
  retrying: "warning",
  dead: "error",
};

/** A delivery's state as the log shows it: Pendiente, Entregado, Reintentando, Fallido. */
export function DeliveryChip({ delivery }: { delivery: Pick<DeliveryView, "status"> }) {
  const { t } = useTranslation("integrations");
  return (
    <Chip
      size="small"
      color={tone[delivery.status]}
      variant={delivery.status === "pending" ? "outlined" : "filled"}
      label={t(`status.${delivery.status}`)}
      data-testid="delivery-status"
      data-status={delivery.status}
    />
  );
}

/** DD/MM/YYYY HH:mm on the company's clock, as every other date of the web. */
const when = (iso: string | null) => formatDateTime(iso) || "—";

/**
 * An integration's delivery log (issue 30): newest first, each with its state, attempts, the receiver's
 * last HTTP status and error, and its dates; live through the integration's event. "Enviar evento de
 * prueba" writes a test delivery and sends it.
 */
export function DeliveryLogDialog({ integration, onClose }: { integration: IntegrationView; onClose: () => void }) {
  const { t } = useTranslation("integrations");
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  const log = useDeliveries(integration.id);
  const test = useTestEvent(integration.id);
  const rows = log.data?.pages.flatMap((p) => p.deliveries) ?? [];
  const send = async () => {
    try {
      await test.mutateAsync();
      toast.success(t("log.testSent"));
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <Dialog
      open
      onClose={onClose}
      fullWidth
      maxWidth="md"
      fullScreen={narrow}
      slotProps={{ paper: { "data-testid": "delivery-log" } as object }}
    >
      <DialogTitle>{t("log.title", { name: integration.name })}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <Typography variant="body2" sx={{ color: "text.secondary", overflowWrap: "anywhere" }}>
          {t("log.help", { url: integration.urlN8N })}
        </Typography>
        {log.isLoading ? (
          <SectionLoader />
        ) : log.isError ? (
          <Alert severity="error">{t("log.loadFailed")}</Alert>
        ) : rows.length === 0 ? (
          <Typography sx={{ color: "text.secondary", py: 3, textAlign: "center" }} data-testid="delivery-log-empty">
            {t("log.empty")}
          </Typography>
        ) : narrow ? (
          // phones: one card per delivery, its details stacked
          <Box sx={{ display: "flex", flexDirection: "column" }} data-testid="delivery-log-table">
            {rows.map((d) => (
              <Box
                key={d.id}
                data-testid="delivery-row"
                data-webhook-id={d.webhookId}
                sx={{ py: 1.5, borderBottom: 1, borderColor: "divider", display: "flex", flexDirection: "column", gap: 0.5 }}
              >
                <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}>
                  <DeliveryChip delivery={d} />
                  <Typography variant="body2" sx={{ fontWeight: 500 }}>
                    {t(`events.${d.event}`)}
                    {d.ticketId !== null && ` · ${t("log.ticket", { id: d.ticketId })}`}
                  </Typography>
                </Box>
                <Typography variant="caption" sx={{ color: "text.secondary" }}>
                  {t("log.columns.attempts")}: {d.attempts} · HTTP {d.lastStatus ?? "—"}
                </Typography>
                <Typography variant="caption" sx={{ color: "text.secondary" }}>
                  {t("log.created", { at: when(d.createdAt) })}
                  {d.lastAttemptAt && <br />}
                  {d.lastAttemptAt && t("log.lastAttempt", { at: when(d.lastAttemptAt) })}
                </Typography>
                {d.lastError && (
                  <Typography variant="caption" sx={{ color: "error.main", overflowWrap: "anywhere" }}>
                    {d.lastError}
                  </Typography>
                )}
              </Box>
            ))}
          </Box>
        ) : (
          <Box sx={{ overflowX: "auto" }}>
            <Table size="small" data-testid="delivery-log-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t("log.columns.status")}</TableCell>
                  <TableCell>{t("log.columns.event")}</TableCell>
                  <TableCell align="right">{t("log.columns.attempts")}</TableCell>
                  <TableCell align="right">{t("log.columns.lastStatus")}</TableCell>
                  <TableCell>{t("log.columns.lastError")}</TableCell>
                  <TableCell>{t("log.columns.dates")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((d) => (
                  <TableRow key={d.id} data-testid="delivery-row" data-webhook-id={d.webhookId}>
                    <TableCell>
                      <DeliveryChip delivery={d} />
                    </TableCell>
                    <TableCell>
                      {t(`events.${d.event}`)}
                      {d.ticketId !== null && (
                        <Typography variant="caption" sx={{ display: "block", color: "text.secondary" }}>
                          {t("log.ticket", { id: d.ticketId })}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell align="right">{d.attempts}</TableCell>
                    <TableCell align="right">{d.lastStatus ?? "—"}</TableCell>
                    <TableCell
                      sx={{
                        maxWidth: 260,
                        overflowWrap: "anywhere",
                        color: d.lastError ? "error.main" : "text.secondary",
                        fontSize: 12,
                      }}
                    >
                      {d.lastError || "—"}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: "nowrap", fontSize: 12 }}>
                      <div>{t("log.created", { at: when(d.createdAt) })}</div>
                      {d.lastAttemptAt && <div>{t("log.lastAttempt", { at: when(d.lastAttemptAt) })}</div>}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        )}
        {log.hasNextPage && (
          <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage} sx={{ alignSelf: "center" }}>
            {t("log.more")}
          </Button>
        )}
      </DialogContent>
      <DialogActions sx={{ flexWrap: "wrap", gap: 1 }}>
        <Button onClick={onClose} data-testid="delivery-log-close">
          {t("common:actions.close")}
        </Button>
        <Button
          variant="contained"
          startIcon={<SendIcon />}
          onClick={send}
          disabled={test.isPending}
          data-testid="delivery-log-test"
        >
          {t("log.test")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
