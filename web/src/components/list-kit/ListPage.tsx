import { Limits } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import SearchIcon from "@mui/icons-material/Search";
import Button from "@mui/material/Button";
import InputAdornment from "@mui/material/InputAdornment";
import { alpha, type Theme } from "@mui/material/styles";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ListState } from "../../api/collection";
import { useDebouncedValue } from "../../hooks/use-debounced-value";
import { useInfiniteScroll } from "../../hooks/use-infinite-scroll";
import { toast } from "../../lib/toast";
import { ListTable, RowActions, wideOnly } from "../ListTable";
import { type BackAction, PageContainer } from "../PageContainer";
import { type DeleteAction, useConfirmDelete } from "./use-confirm-delete";

export type Column<T> = {
  label: string;
  /** Shown from 600 px up only (put what matters of it under the first column for phones). */
  wide?: boolean;
  /** Counts and amounts line up on the right. */
  align?: "right";
  cell: (row: T) => ReactNode;
};

type Props<T extends { id: number }> = {
  title: string;
  /** The icon button before the title back to the page above. */
  back?: BackAction;
  /** `{testId}-search`, `{testId}-add`, `{testId}-table`, `{testId}-row`, `{testId}-empty`. */
  testId: string;
  /** The rows for a search (the page debounces it): one area's `collection.useList`. */
  useRows: (search: string) => ListState<T>;
  columns: Column<T>[];
  actionsLabel: string;
  /** Without it the page has no search field. */
  searchLabel?: string;
  addLabel?: string;
  onAdd?: () => void;
  /** The page's own buttons beside search and add (import, export…). */
  actions?: ReactNode;
  empty: (searching: boolean) => string;
  /** Row buttons: `{rowTestId}-edit`, `{rowTestId}-delete`. */
  rowTestId: string;
  rowData?: (row: T) => Record<`data-${string}`, string | number | boolean>;
  /** A row tinted by its state (an overdue invoice). */
  rowTone?: (row: T) => "error" | "warning" | undefined;
  /** A click on the row outside its buttons and links. */
  onRowClick?: (row: T) => void;
  /** Whether a row answers clicks (its pointer). */
  rowClickable?: (row: T) => boolean;
  onEdit?: (row: T) => void;
  /** Whether a row offers edit (every row when not given), like `remove.allowed` for delete. */
  editAllowed?: (row: T) => boolean;
  remove?: DeleteAction<T>;
  rowExtra?: (row: T) => ReactNode;
  /** The page's dialogs. */
  children?: ReactNode;
};

function toneOf(tone: "error" | "warning" | undefined) {
  return !!tone && { bgcolor: (theme: Theme) => alpha(theme.palette[tone].main, 0.1) };
}

/**
 * A list page of core §2: title, search (debounced, core §9), add, an infinitely scrolled table, edit
 * and confirmed delete per row, and the one error text of core §8 when the list cannot load.
 */
export function ListPage<T extends { id: number }>(props: Props<T>) {
  const { t } = useTranslation();
  const { testId, columns, rowTestId, remove } = props;
  const [search, setSearch] = useState("");
  const debounced = useDebouncedValue(search.trim(), Limits.debounceMs);
  const list = props.useRows(debounced);
  const confirm = useConfirmDelete(remove);
  const { ref, onScroll } = useInfiniteScroll<HTMLDivElement>({
    hasMore: list.hasMore,
    loading: list.fetching,
    loadMore: list.loadMore,
  });

  useEffect(() => {
    if (!list.isError) return;
    const text = t("common:feedback.loadList");
    toast.error(text, { toastId: text });
  }, [list.isError, t]);

  return (
    <PageContainer
      title={props.title}
      back={props.back}
      fill
      actions={
        <>
          {props.searchLabel && (
            <TextField
              size="small"
              placeholder={props.searchLabel}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              // never narrower than its placeholder (icon and padding beside it): "Buscar por nombre o
              // número" was cut at 1366 px; `ch` (a digit's width) is wider than most letters
              sx={{
                flex: { xs: "1 1 100%", sm: "none" },
                minWidth: { sm: `max(260px, calc(${Array.from(props.searchLabel).length}ch + 64px))` },
              }}
              slotProps={{
                htmlInput: { "data-testid": `${testId}-search`, "aria-label": props.searchLabel },
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <SearchIcon fontSize="small" />
                    </InputAdornment>
                  ),
                },
              }}
            />
          )}
          {props.actions}
          {props.onAdd && (
            <Button
              variant="contained"
              startIcon={<AddIcon />}
              onClick={props.onAdd}
              sx={{ flex: { xs: 1, sm: "none" }, height: 40, whiteSpace: "nowrap" }}
              data-testid={`${testId}-add`}
            >
              {props.addLabel}
            </Button>
          )}
        </>
      }
    >
      <ListTable
        testId={testId}
        columns={columns}
        actionsLabel={props.actionsLabel}
        loading={list.loading}
        empty={list.items.length === 0 ? props.empty(debounced !== "") : null}
        scrollRef={ref}
        onScroll={onScroll}
      >
        {list.items.map((row) => (
          <TableRow
            key={row.id}
            hover
            data-testid={`${testId}-row`}
            {...props.rowData?.(row)}
            onClick={(event) => {
              if (!props.onRowClick || (event.target as HTMLElement).closest("button, a")) return;
              props.onRowClick(row);
            }}
            sx={[!!props.rowClickable?.(row) && { cursor: "pointer" }, toneOf(props.rowTone?.(row))]}
          >
            {columns.map((column) => (
              <TableCell
                key={column.label}
                align={column.align}
                sx={{ ...(column.wide ? wideOnly : {}), wordBreak: "break-word" }}
              >
                {column.cell(row)}
              </TableCell>
            ))}
            <RowActions
              prefix={rowTestId}
              onEdit={props.onEdit && (props.editAllowed?.(row) ?? true) ? () => props.onEdit?.(row) : undefined}
              onDelete={remove && (remove.allowed?.(row) ?? true) ? () => confirm.ask(row) : undefined}
              extra={props.rowExtra?.(row)}
            />
          </TableRow>
        ))}
      </ListTable>
      {confirm.dialog}
      {props.children}
    </PageContainer>
  );
}
