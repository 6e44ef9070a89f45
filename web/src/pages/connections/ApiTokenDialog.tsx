import type { ApiTokenView, ConnectionView } from "@charla/contracts";
import CopyIcon from "@mui/icons-material/ContentCopy";
import RefreshIcon from "@mui/icons-material/Autorenew";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import Link from "@mui/material/Link";
import TextField from "@mui/material/TextField";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { api } from "../../api/client";
import { toastError } from "../../api/errors";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { toast } from "../../lib/toast";

const tokenKey = (id: number) => ["whatsapps", "api-token", id] as const;

type Props = { connection: ConnectionView; onClose: () => void };

/**
 * core §2 Connections, action "token" (issue 30): the connection's external API token, shown, copied
 * and regenerated (after a confirmation: the old one stops working at once). Admins only.
 */
export function ApiTokenDialog({ connection, onClose }: Props) {
  const { t } = useTranslation("connections");
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const token = useQuery({
    queryKey: tokenKey(connection.id),
    queryFn: ({ signal }) => api<ApiTokenView>(`/whatsapp/${connection.id}/api-token`, { signal }),
    // a secret: read when the dialog opens, never kept for later
    staleTime: 0,
    gcTime: 0,
  });
  const regenerate = useMutation({
    mutationFn: () => api<ApiTokenView>(`/whatsapp/${connection.id}/api-token`, { method: "POST" }),
    onSuccess: (view) => {
      client.setQueryData(tokenKey(connection.id), view);
      toast.success(t("apiToken.regenerated"));
    },
    onError: (err) => toastError(err),
  });
  const value = token.data?.apiToken ?? "";

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      toast.success(t("apiToken.copied"));
    } catch {
      toast.error(t("apiToken.copyFailed"));
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth slotProps={{ paper: { "data-testid": "api-token-dialog" } as object }}>
      <DialogTitle>{t("apiToken.title", { name: connection.name })}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <DialogContentText>{t("apiToken.help")}</DialogContentText>
        {token.error ? (
          <Alert severity="error">{t("apiToken.loadFailed")}</Alert>
        ) : (
          <TextField
            label={t("apiToken.label")}
            value={value}
            placeholder={token.isPending ? t("apiToken.loading") : ""}
            fullWidth
            multiline
            slotProps={{
              inputLabel: { shrink: true },
              htmlInput: {
                readOnly: true,
                spellCheck: false,
                "data-testid": "api-token-value",
                style: { fontFamily: "monospace", wordBreak: "break-all" },
              },
            }}
            onFocus={(event) => event.target.select()}
          />
        )}
        <DialogContentText variant="body2">
          {t("apiToken.docs")}{" "}
          <Link component={RouterLink} to="/messages-api" onClick={onClose} data-testid="api-token-docs">
            /messages-api
          </Link>
        </DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: "wrap", gap: 1 }}>
        <Button
          color="error"
          startIcon={<RefreshIcon />}
          disabled={!value || regenerate.isPending}
          onClick={() => setConfirming(true)}
          data-testid="api-token-regenerate"
        >
          {t("apiToken.regenerate")}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button onClick={onClose} color="inherit" data-testid="api-token-close">
          {t("common:actions.close")}
        </Button>
        <Button
          variant="contained"
          startIcon={<CopyIcon />}
          disabled={!value}
          onClick={() => void copy()}
          data-testid="api-token-copy"
        >
          {t("apiToken.copy")}
        </Button>
      </DialogActions>
      <ConfirmDialog
        open={confirming}
        title={t("apiToken.confirmTitle")}
        confirmLabel={t("apiToken.regenerate")}
        busy={regenerate.isPending}
        onConfirm={() => {
          setConfirming(false);
          regenerate.mutate();
        }}
        onClose={() => setConfirming(false)}
      >
        {t("apiToken.confirmMessage")}
      </ConfirmDialog>
    </Dialog>
  );
}
