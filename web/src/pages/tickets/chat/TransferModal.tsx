import type { QueueRef, TicketView, UserView } from "@charla/contracts";
import { Limits } from "@charla/contracts";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { toast } from "../../../lib/toast";
import { toastError } from "../../../api/errors";
import { useQueues, useWhatsapps } from "../../../api/lookups";
import { useTransferUsers, useUpdateTicket } from "../../../api/ticket-actions";
import { useDebouncedValue } from "../../../hooks/use-debounced-value";

type Props = { ticket: TicketView; open: boolean; onClose: () => void };

/**
 * core §4 transfer: a queue (required), optionally a user and a connection. With a user the ticket
 * is open for them, without one it waits as pending; either way the user goes back to /tickets.
 */
export function TransferModal({ ticket, open, onClose }: Props) {
  const { t } = useTranslation("chat");
  const navigate = useNavigate();
  const queues = useQueues(open);
  const whatsapps = useWhatsapps(open);
  const [queue, setQueue] = useState<QueueRef | null>(ticket.queue);
  const [user, setUser] = useState<UserView | null>(null);
  const [search, setSearch] = useState("");
  const debounced = useDebouncedValue(search, Limits.debounceMs);
  const users = useTransferUsers(debounced);
  const [whatsappId, setWhatsappId] = useState<number | "">(ticket.whatsappId ?? "");
  const [missingQueue, setMissingQueue] = useState(false);
  const update = useUpdateTicket();

  const save = async () => {
    if (!queue) {
      setMissingQueue(true);
      return;
    }
    try {
      await update.mutateAsync({
        id: ticket.id,
        values: {
          queueId: queue.id,
          userId: user?.id ?? null,
          status: user ? "open" : "pending",
          ...(whatsappId === "" ? {} : { whatsappId }),
        },
      });
      toast.success(t("transfer.done"));
      onClose();
      navigate("/tickets");
    } catch (error) {
      toastError(error);
    }
  };

  const searching = search.trim().length >= Limits.searchMin;
  return (
    <Dialog open={open} onClose={update.isPending ? undefined : onClose} fullWidth maxWidth="xs" data-testid="transfer-modal">
      <DialogTitle>{t("transfer.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2.5, pt: "8px !important" }}>
        <Autocomplete
          options={queues.data ?? []}
          loading={queues.isLoading}
          value={queue}
          onChange={(_, value) => {
            setQueue(value);
            setMissingQueue(false);
          }}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          renderOption={(props, option) => {
            const { key, ...rest } = props;
            return (
              <li key={key} {...rest}>
                <Box component="span" sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: option.color, mr: 1 }} />
                {option.name}
              </li>
            );
          }}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t("transfer.queue")}
              required
              error={missingQueue}
              helperText={missingQueue ? t("common:validation.queueRequired") : undefined}
              slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, "data-testid": "transfer-queue" } }}
            />
          )}
        />
        <Autocomplete
          options={searching ? (users.data ?? []) : []}
          loading={searching && (users.isFetching || debounced !== search)}
          value={user}
          onChange={(_, value) => setUser(value)}
          inputValue={search}
          onInputChange={(_, value) => setSearch(value)}
          filterOptions={(list) => list}
          getOptionLabel={(option) => option.name}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          noOptionsText={searching ? t("transfer.noUsers") : t("transfer.typeToSearch")}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t("transfer.user")}
              helperText={t("transfer.userHelp")}
              slotProps={{
                ...params.slotProps,
                input: {
                  ...params.slotProps.input,
                  endAdornment: (
                    <>
                      {searching && users.isFetching ? <CircularProgress size={18} /> : null}
                      {params.slotProps.input.endAdornment}
                    </>
                  ),
                } as object,
                htmlInput: { ...params.slotProps.htmlInput, "data-testid": "transfer-user" },
              }}
            />
          )}
        />
        <TextField
          select
          label={t("transfer.connection")}
          value={whatsappId}
          onChange={(event) => setWhatsappId(event.target.value === "" ? "" : Number(event.target.value))}
          slotProps={{ select: { SelectDisplayProps: { "data-testid": "transfer-connection" } as object } }}
        >
          <MenuItem value="">
            <em>{t("transfer.keepConnection")}</em>
          </MenuItem>
          {(whatsapps.data ?? []).map((wa) => (
            <MenuItem key={wa.id} value={wa.id}>
              {wa.name}
            </MenuItem>
          ))}
        </TextField>
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 2 }}>
        <Button onClick={onClose} color="inherit" disabled={update.isPending}>
          {t("common:actions.cancel")}
        </Button>
        <Button
          variant="contained"
          onClick={() => void save()}
          disabled={update.isPending}
          data-testid="transfer-save"
          startIcon={update.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {t("transfer.save")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
