import type { TicketView } from "@charla/contracts";
import CheckIcon from "@mui/icons-material/CheckCircleOutlined";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import MoreVertIcon from "@mui/icons-material/MoreVert";
import ReopenIcon from "@mui/icons-material/Replay";
import ReturnIcon from "@mui/icons-material/Undo";
import TransferIcon from "@mui/icons-material/SwapHoriz";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { usePermission } from "../../../auth/permissions";
import { useBotHold } from "../use-bot-hold";
import type { Transition } from "./use-ticket-transitions";

type Props = {
  ticket: TicketView;
  compact: boolean;
  busy: boolean;
  onTransition: (transition: Transition) => void;
  onTransfer: () => void;
  onDelete: () => void;
};

type Item = { key: string; testId: string; label: string; icon: ReactNode; onClick: () => void; danger?: boolean };

/**
 * core §2 header actions by status: pending → Accept (Resolve in the options); open → Return, Resolve,
 * options; closed → Reopen. None of them while the chatbot holds the ticket for an agent (issue 26).
 * On a narrow chat only the main action stays a button; the rest moves into the options menu.
 */
export function TicketActions({ ticket, compact, busy, onTransition, onTransfer, onDelete }: Props) {
  const { t } = useTranslation("chat");
  const canTransfer = usePermission("tickets.transfer");
  const canDelete = usePermission("tickets.delete");
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // an agent reads the bot's conversation only: as if it had no status to act on
  const status = useBotHold(ticket) ? null : ticket.status;
  const spinner = busy ? <CircularProgress size={16} color="inherit" /> : undefined;

  const menu: Item[] = [];
  if (status === "open" && compact) {
    menu.push({
      key: "return",
      testId: "chat-return",
      label: t("actions.return"),
      icon: <ReturnIcon fontSize="small" />,
      onClick: () => onTransition("return"),
    });
  }
  // core §4: finish works on any non-closed ticket, a pending one too
  if (status === "pending") {
    menu.push({
      key: "resolve",
      testId: "chat-resolve",
      label: t("actions.resolve"),
      icon: <CheckIcon fontSize="small" />,
      onClick: () => onTransition("resolve"),
    });
  }
  if (canTransfer && status !== "closed") {
    menu.push({
      key: "transfer",
      testId: "chat-transfer",
      label: t("actions.transfer"),
      icon: <TransferIcon fontSize="small" />,
      onClick: onTransfer,
    });
  }
  if (canDelete) {
    menu.push({
      key: "delete",
      testId: "chat-delete",
      label: t("actions.delete"),
      icon: <DeleteIcon fontSize="small" color="error" />,
      onClick: onDelete,
      danger: true,
    });
  }

  return (
    <Box
      sx={{
        display: "flex",
        alignItems: "center",
        gap: 1,
        flexShrink: 0,
        "& .MuiButton-root": { textTransform: "none", fontWeight: 600, borderRadius: 5, px: 1.75, whiteSpace: "nowrap" },
      }}
    >
      {status === "pending" && (
        <Button
          variant="contained"
          size="small"
          onClick={() => onTransition("accept")}
          disabled={busy}
          startIcon={spinner}
          data-testid="chat-accept"
        >
          {t("actions.accept")}
        </Button>
      )}
      {status === "open" && !compact && (
        <Button
          variant="outlined"
          color="inherit"
          size="small"
          onClick={() => onTransition("return")}
          disabled={busy}
          startIcon={<ReturnIcon />}
          data-testid="chat-return"
        >
          {t("actions.return")}
        </Button>
      )}
      {status === "open" &&
        (compact ? (
          <Tooltip title={t("actions.resolve")}>
            <span>
              <IconButton
                color="success"
                onClick={() => onTransition("resolve")}
                disabled={busy}
                aria-label={t("actions.resolve")}
                data-testid="chat-resolve"
              >
                {spinner ?? <CheckIcon />}
              </IconButton>
            </span>
          </Tooltip>
        ) : (
          <Button
            variant="contained"
            color="success"
            size="small"
            onClick={() => onTransition("resolve")}
            disabled={busy}
            startIcon={spinner ?? <CheckIcon />}
            data-testid="chat-resolve"
          >
            {t("actions.resolve")}
          </Button>
        ))}
      {status === "closed" && (
        <Button
          variant="outlined"
          size="small"
          onClick={() => onTransition("reopen")}
          disabled={busy}
          startIcon={spinner ?? <ReopenIcon />}
          data-testid="chat-reopen"
        >
          {t("actions.reopen")}
        </Button>
      )}
      {menu.length > 0 && (
        <>
          <Tooltip title={t("actions.options")}>
            <IconButton
              onClick={(event) => setAnchor(event.currentTarget)}
              aria-label={t("actions.options")}
              aria-haspopup="menu"
              data-testid="chat-options"
            >
              <MoreVertIcon />
            </IconButton>
          </Tooltip>
          <Menu
            anchorEl={anchor}
            open={!!anchor}
            onClose={() => setAnchor(null)}
            anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
            transformOrigin={{ vertical: "top", horizontal: "right" }}
          >
            {menu.flatMap((item, i) => [
              item.danger && i > 0 ? <Divider key={`${item.key}-divider`} /> : null,
              <MenuItem
                key={item.key}
                data-testid={item.testId}
                onClick={() => {
                  setAnchor(null);
                  item.onClick();
                }}
                sx={item.danger ? { color: "error.main" } : undefined}
              >
                <ListItemIcon>{item.icon}</ListItemIcon>
                <ListItemText>{item.label}</ListItemText>
              </MenuItem>,
            ])}
          </Menu>
        </>
      )}
    </Box>
  );
}
