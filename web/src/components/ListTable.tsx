import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ReactNode, Ref, UIEvent } from "react";
import { useTranslation } from "react-i18next";
import { SectionLoader } from "./FullPageLoader";

/** Columns shown from 600 px up; below it their content moves under the first column. */
export const wideOnly = { display: { xs: "none", sm: "table-cell" } };
export const narrowOnly = { display: { xs: "block", sm: "none" } };

type Column = { label: string; wide?: boolean; align?: "right" };

type Props = {
  testId: string;
  columns: Column[];
  actionsLabel: string;
  loading: boolean;
  /** Shown when loading is over and there are no rows. */
  empty: string | null;
  scrollRef: Ref<HTMLDivElement>;
  onScroll: (event: UIEvent<HTMLDivElement>) => void;
  children: ReactNode;
};

/** The scrolling, infinite-loading table every list page uses; the last column holds the actions. */
export function ListTable({ testId, columns, actionsLabel, loading, empty, scrollRef, onScroll, children }: Props) {
  return (
    <TableContainer
      component={Paper}
      variant="outlined"
      ref={scrollRef}
      onScroll={onScroll}
      sx={{ flex: 1, minHeight: 0, overflow: "auto" }}
      data-testid={`${testId}-table`}
    >
      <Table stickyHeader size="small">
        <TableHead>
          <TableRow>
            {columns.map((c) => (
              <TableCell key={c.label} align={c.align} sx={c.wide ? wideOnly : undefined}>
                {c.label}
              </TableCell>
            ))}
            <TableCell align="right">{actionsLabel}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
      {loading && <SectionLoader />}
      {!loading && empty && (
        <Typography sx={{ p: 3, textAlign: "center", color: "text.secondary" }} data-testid={`${testId}-empty`}>
          {empty}
        </Typography>
      )}
    </TableContainer>
  );
}

type RowActionsProps = {
  prefix: string;
  onEdit?: () => void;
  onDelete?: () => void;
  /** A page's own buttons of the row, shown before edit (small icon buttons, like these). */
  extra?: ReactNode;
};

/** Edit and (when allowed) delete buttons of a row; test ids are `{prefix}-edit` and `{prefix}-delete`. */
export function RowActions({ prefix, onEdit, onDelete, extra }: RowActionsProps) {
  const { t } = useTranslation();
  const button = (action: "edit" | "delete", onClick: () => void, icon: ReactNode) => (
    <Tooltip title={t(`common:actions.${action}`)}>
      <IconButton size="small" aria-label={t(`common:actions.${action}`)} data-testid={`${prefix}-${action}`} onClick={onClick}>
        {icon}
      </IconButton>
    </Tooltip>
  );
  return (
    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
      {extra}
      {onEdit && button("edit", onEdit, <EditIcon fontSize="small" />)}
      {onDelete && button("delete", onDelete, <DeleteIcon fontSize="small" />)}
    </TableCell>
  );
}
