import type { DashboardAttendant } from "@charla/contracts";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Rating from "@mui/material/Rating";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { durationParts } from "./format";

/** core §9: ratings run 1 (dissatisfied) to 3 (very satisfied). */
const MAX_RATING = 3;

function OnlineDot({ online }: { online: boolean }) {
  const { t } = useTranslation("home");
  const label = t(online ? "attendants.online" : "attendants.offline");
  return (
    <Tooltip title={label}>
      <Box
        role="img"
        aria-label={label}
        data-online={online}
        sx={{
          width: 12,
          height: 12,
          borderRadius: "50%",
          bgcolor: online ? "success.main" : "grey.400",
          display: "inline-block",
        }}
      />
    </Tooltip>
  );
}

/** The period's agents: rating (stars and number), mean service time, presence. */
export function AttendantsTable({ attendants }: { attendants: DashboardAttendant[] | undefined }) {
  const { t } = useTranslation("home");
  return (
    <Paper variant="outlined" data-testid="attendants">
      <Typography variant="h6" component="h2" sx={{ p: 2, pb: 1 }}>
        {t("attendants.title")}
      </Typography>
      <TableContainer sx={{ maxHeight: 420 }}>
        <Table stickyHeader size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t("attendants.name")}</TableCell>
              <TableCell>{t("attendants.rating")}</TableCell>
              <TableCell>{t("attendants.supportTime")}</TableCell>
              <TableCell align="center">{t("attendants.status")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(attendants ?? []).map((a) => (
              <TableRow key={a.id} data-testid={`attendant-${a.id}`}>
                <TableCell>{a.name}</TableCell>
                <TableCell>
                  {a.rating === null ? (
                    <Typography variant="body2" sx={{ color: "text.secondary" }}>
                      {t("attendants.noRating")}
                    </Typography>
                  ) : (
                    <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
                      <Rating value={a.rating} max={MAX_RATING} precision={0.1} readOnly size="small" />
                      <Typography variant="body2">{a.rating.toFixed(1)}</Typography>
                    </Box>
                  )}
                </TableCell>
                <TableCell>{t("duration", durationParts(a.avgSupportTime))}</TableCell>
                <TableCell align="center">
                  <OnlineDot online={a.online} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        {attendants?.length === 0 && (
          <Typography sx={{ p: 3, textAlign: "center", color: "text.secondary" }}>{t("attendants.empty")}</Typography>
        )}
      </TableContainer>
    </Paper>
  );
}
