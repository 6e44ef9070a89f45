import HistoryIcon from "@mui/icons-material/History";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { type DashboardQuery, useDashboardClosed } from "../../api/dashboard";
import { ListTable, wideOnly } from "../../components/ListTable";
import { useInfiniteScroll } from "../../hooks/use-infinite-scroll";
import { formatDateTime } from "../../lib/company-time";

/** core §2: the period's closed tickets, pages loaded by scroll, each with a button to its history. */
export function ClosedTicketsTable({ filter }: { filter: DashboardQuery }) {
  const { t } = useTranslation("home");
  const navigate = useNavigate();
  const query = useDashboardClosed(filter);
  const rows = query.data?.pages.flatMap((p) => p.tickets) ?? [];
  const { ref, onScroll } = useInfiniteScroll<HTMLDivElement>({
    hasMore: query.hasNextPage,
    loading: query.isFetching,
    loadMore: () => void query.fetchNextPage(),
  });
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      <Typography variant="h6" component="h2">
        {t("closed.title")}
      </Typography>
      <Box sx={{ height: 420, display: "flex", flexDirection: "column" }}>
        <ListTable
          testId="closed-tickets"
          columns={[
            { label: t("closed.contact") },
            { label: t("closed.user"), wide: true },
            { label: t("closed.queue"), wide: true },
            { label: t("closed.finishedAt") },
          ]}
          actionsLabel={t("closed.actions")}
          loading={query.isFetching}
          empty={rows.length === 0 ? t("closed.empty") : null}
          scrollRef={ref}
          onScroll={onScroll}
        >
          {rows.map((r) => (
            <TableRow key={r.id} data-testid={`closed-ticket-${r.id}`}>
              <TableCell>{r.ticket.contact.name}</TableCell>
              <TableCell sx={wideOnly}>{r.user?.name ?? t("closed.noUser")}</TableCell>
              <TableCell sx={wideOnly}>{r.ticket.queue?.name ?? t("closed.noQueue")}</TableCell>
              <TableCell>{formatDateTime(r.finishedAt)}</TableCell>
              <TableCell align="right">
                <Tooltip title={t("closed.history")}>
                  <IconButton
                    size="small"
                    aria-label={t("closed.history")}
                    data-testid={`closed-ticket-${r.id}-history`}
                    onClick={() => navigate(`/tickets/${r.ticket.uuid}`)}
                  >
                    <HistoryIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </ListTable>
      </Box>
    </Box>
  );
}
