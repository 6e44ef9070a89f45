import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Button from "@mui/material/Button";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useTranslation } from "react-i18next";
import { useUpcomingSchedules } from "../../api/schedules";
import { formatDateTime } from "../../lib/company-time";
import { StatusChip } from "./StatusChip";

/** What goes out in the next 24 h, company-wide, soonest first; overdue ones (not sent yet) at the head. */
export function UpcomingDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation("schedules");
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  const upcoming = useUpcomingSchedules();
  const rows = upcoming.data?.schedules ?? [];
  const now = Date.now();
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" fullScreen={narrow} data-testid="schedules-upcoming-dialog">
      <DialogTitle>{t("upcoming.title")}</DialogTitle>
      <DialogContent dividers>
        {upcoming.isSuccess && rows.length === 0 && <Typography color="text.secondary">{t("upcoming.empty")}</Typography>}
        <List dense disablePadding>
          {rows.map((s) => (
            <ListItem key={s.id} disableGutters divider data-testid="schedules-upcoming-row">
              <ListItemText
                primary={
                  <Box sx={{ display: "flex", gap: 1, alignItems: "baseline", flexWrap: "wrap" }}>
                    <Typography component="span" sx={{ fontWeight: 600, whiteSpace: "nowrap" }}>
                      {formatDateTime(s.sendAt)}
                    </Typography>
                    {new Date(s.sendAt).getTime() < now && (
                      <Typography component="span" variant="caption" color="warning.main">
                        {t("upcoming.overdue")}
                      </Typography>
                    )}
                    <Typography component="span" sx={{ overflowWrap: "anywhere" }}>
                      {s.contact?.name ?? "–"}
                    </Typography>
                  </Box>
                }
                secondary={
                  <Box component="span" sx={{ display: "block" }}>
                    <Typography
                      component="span"
                      variant="body2"
                      color="text.secondary"
                      sx={{ display: "block", overflowWrap: "anywhere" }}
                    >
                      {s.body}
                    </Typography>
                    <Typography component="span" variant="caption" color="text.secondary">
                      {s.user?.name ?? ""}
                    </Typography>
                  </Box>
                }
              />
              <Box sx={{ ml: 1, flex: "none" }}>
                <StatusChip s={s} />
              </Box>
            </ListItem>
          ))}
        </List>
        {upcoming.data?.hasMore && (
          <Alert severity="info" sx={{ mt: 2 }}>
            {t("upcoming.more")}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="schedules-upcoming-close">
          {t("common:actions.close")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
