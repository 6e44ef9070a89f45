import type { ContactListImportResult } from "@charla/contracts";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { currentLanguage } from "../../i18n";

const count = (n: number) => n.toLocaleString(currentLanguage());

function Figure({ label, value, color, testId }: { label: string; value: number; color: string; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ flex: 1, p: 1.5, textAlign: "center" }}>
      <Typography variant="h5" sx={{ fontWeight: 600, color: value > 0 ? color : "text.secondary" }} data-testid={testId}>
        {count(value)}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Paper>
  );
}

/** What an import did: rows added, numbers already there updated, and each refused row with its reason. */
export function ImportSummary({ result }: { result: ContactListImportResult }) {
  const { t } = useTranslation("contact-lists");
  const { rejected, rejectedCount } = result;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }} data-testid="import-summary">
      <Box sx={{ display: "flex", gap: 1.5 }}>
        <Figure label={t("import.summary.imported")} value={result.imported} color="success.main" testId="import-imported" />
        <Figure label={t("import.summary.updated")} value={result.updated} color="info.main" testId="import-updated" />
        <Figure label={t("import.summary.rejected")} value={rejectedCount} color="error.main" testId="import-rejected" />
      </Box>
      {rejected.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t("import.summary.noneRejected")}
        </Typography>
      ) : (
        <>
          <Typography variant="subtitle2">{t("import.summary.rejectedRows")}</Typography>
          <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 280 }}>
            <Table size="small" stickyHeader>
              <TableHead>
                <TableRow>
                  <TableCell align="right">{t("import.summary.row")}</TableCell>
                  <TableCell>{t("import.summary.reason")}</TableCell>
                  <TableCell>{t("import.summary.value")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rejected.map((r) => (
                  <TableRow key={r.row} data-testid="import-rejected-row" data-row={r.row} data-reason={r.reason}>
                    <TableCell align="right">{r.row}</TableCell>
                    <TableCell>{t(`import.reasons.${r.reason}`)}</TableCell>
                    <TableCell sx={{ wordBreak: "break-all" }}>{r.value || "—"}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {rejectedCount > rejected.length && (
            <Typography variant="caption" color="text.secondary">
              {t("import.summary.more", { shown: count(rejected.length), total: count(rejectedCount) })}
            </Typography>
          )}
        </>
      )}
    </Box>
  );
}
