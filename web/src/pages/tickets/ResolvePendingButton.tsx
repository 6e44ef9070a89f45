import type { TicketView } from "@charla/contracts";
import ResolveIcon from "@mui/icons-material/TaskAlt";
import CircularProgress from "@mui/material/CircularProgress";
import IconButton from "@mui/material/IconButton";
import Tooltip from "../../components/LightTooltip";
import type { KeyboardEvent, MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../api/errors";
import { useUpdateTicket } from "../../api/ticket-actions";
import { useSessionUser } from "../../auth/context";

const stop = (event: MouseEvent | KeyboardEvent) => event.stopPropagation();

/**
 * core §4: finish works on any non-closed ticket, a pending one too; a pending ticket is never
 * opened by a click (issue 26: it could not be resolved from the interface at all).
 */
export function ResolvePendingButton({ ticket }: { ticket: TicketView }) {
  const { t } = useTranslation("chat");
  const me = useSessionUser();
  const update = useUpdateTicket();
  const resolve = () =>
    update.mutate(
      {
        id: ticket.id,
        values: { status: "closed", userId: me.id, useIntegration: false, promptId: null, integrationId: null },
      },
      { onError: (error) => toastError(error) },
    );
  return (
    <Tooltip title={t("actions.resolve")}>
      <span>
        <IconButton
          size="small"
          color="success"
          aria-label={t("actions.resolve")}
          data-testid="ticket-item-resolve"
          disabled={update.isPending}
          onClick={(event) => {
            stop(event);
            resolve();
          }}
          onKeyDown={stop}
          sx={{ p: 0.25 }}
        >
          {update.isPending ? <CircularProgress size={16} color="inherit" /> : <ResolveIcon sx={{ fontSize: 20 }} />}
        </IconButton>
      </span>
    </Tooltip>
  );
}
