import { zodResolver } from "@hookform/resolvers/zod";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { SxProps, Theme } from "@mui/material/styles";
import type { UseQueryResult } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { type DefaultValues, type FieldValues, type Resolver, type UseFormReturn, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { ApiError } from "../../api/client";
import type { ListState } from "../../api/collection";
import { toastError } from "../../api/errors";
import { useInfiniteScroll } from "../../hooks/use-infinite-scroll";
import { toast } from "../../lib/toast";
import { ListTable, RowActions, wideOnly } from "../ListTable";
import { applyIssues } from "./FormDialog";
import type { Column } from "./ListPage";
import { type DeleteAction, useConfirmDelete } from "./use-confirm-delete";

/** A list read whole (one query, no pages) as the table's rows. */
export function wholeList<T>(query: UseQueryResult<T[]>): ListState<T> {
  return {
    items: query.data ?? [],
    hasMore: false,
    loadMore: () => undefined,
    loading: query.isPending,
    fetching: query.isFetching,
    isError: query.isError,
  };
}

export type FormTableTexts = {
  formTitle: string;
  editTitle: string;
  save: string;
  update: string;
  clear: string;
  cancel: string;
  saved: string;
  /** secondary §8: a refused save is said in the area's own words. */
  saveFailed: string;
  empty: string;
  actions: string;
};

type Props<T extends { id: number }, V extends FieldValues> = {
  /** `{testId}-form`, `-save`, `-clear`, `-row`, `-edit`, `-delete`. */
  testId: string;
  /** `{tableTestId}-table`, `{tableTestId}-empty`. */
  tableTestId: string;
  /** The contracts schema of the form; a function when creating and editing differ (a company's admin password). */
  schema: z.ZodType | ((editing: T | null) => z.ZodType);
  blank: V;
  /** The form's values for a row being edited. */
  valuesOf: (row: T) => V;
  texts: FormTableTexts;
  fields: (form: UseFormReturn<V>, editing: T | null) => ReactNode;
  /** The form's own buttons, before clear and save. */
  formActions?: (form: UseFormReturn<V>, editing: T | null) => ReactNode;
  /** The input that takes the cursor when a row is edited. */
  focusField?: string;
  columns: Column<T>[];
  list: ListState<T>;
  save: (values: V, editing: T | null) => Promise<T>;
  afterSave?: (saved: T, editing: T | null) => void;
  /** Error codes that also mean "refused" and so say `saveFailed` (a duplicate name, for instance). */
  refusedCodes?: readonly string[];
  remove?: DeleteAction<T>;
  rowExtra?: (row: T) => ReactNode;
  rowSx?: (row: T) => SxProps<Theme> | undefined;
  rowData?: (row: T) => Record<`data-${string}`, string | number | boolean>;
  maxTableHeight?: number;
};

/**
 * A settings tab of secondary §2 (Empresas, Planes, Ayuda): the form above saves a new row or the one
 * being edited, the table below lists them (infinitely scrolled when paged), with edit and a confirmed
 * delete per row. A tab is then its columns and its fields.
 */
export function FormTableTab<T extends { id: number }, V extends FieldValues>(props: Props<T, V>) {
  const { t } = useTranslation();
  const { testId, texts, list, blank } = props;
  const [editing, setEditing] = useState<T | null>(null);
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const schemaRef = useRef(props.schema);
  schemaRef.current = props.schema;
  const resolver: Resolver<V> = (values, context, options) => {
    const schema = typeof schemaRef.current === "function" ? schemaRef.current(editingRef.current) : schemaRef.current;
    return (zodResolver(schema as never) as unknown as Resolver<V>)(values, context, options);
  };
  const form = useForm<V>({ resolver, defaultValues: blank as DefaultValues<V> });
  const formRef = useRef<HTMLFormElement>(null);
  const scroll = useInfiniteScroll<HTMLDivElement>({ hasMore: list.hasMore, loading: list.fetching, loadMore: list.loadMore });

  useEffect(() => {
    // secondary §8: a list that cannot load says so in these words, whatever the cause
    if (list.isError) toastError(undefined, t("common:feedback.loadList"));
  }, [list.isError, t]);

  const reset = () => {
    setEditing(null);
    form.reset(blank);
  };

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await props.save(values, editing);
      toast.success(texts.saved);
      reset();
      props.afterSave?.(saved, editing);
    } catch (error) {
      applyIssues(error, form, blank);
      // other known codes (no permission, not found, a limit) keep their own text
      const code = error instanceof ApiError ? error.code : undefined;
      const refused = !(error instanceof ApiError) || code === "ERR_VALIDATION" || props.refusedCodes?.includes(code ?? "");
      toastError(refused ? undefined : error, texts.saveFailed);
    }
  });

  const startEdit = (row: T) => {
    setEditing(row);
    form.reset(props.valuesOf(row));
  };

  // the edit happens in the form above the table: the cursor goes to its first field once the values are in
  useEffect(() => {
    if (!editing || !props.focusField) return;
    const selector = `input[name="${props.focusField}"]`;
    const frame = requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>(selector)?.focus());
    return () => cancelAnimationFrame(frame);
  }, [editing, props.focusField]);

  const remove = props.remove;
  const confirmDelete = useConfirmDelete<T>(
    remove && {
      ...remove,
      run: async (row) => {
        await remove.run(row);
        if (editing?.id === row.id) reset();
      },
    },
  );

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <Box
        component="form"
        ref={formRef}
        noValidate
        onSubmit={submit}
        data-testid={`${testId}-form`}
        sx={{ display: "flex", flexDirection: "column", gap: 2 }}
      >
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {editing ? texts.editTitle : texts.formTitle}
        </Typography>
        {props.fields(form, editing)}
        <Box sx={{ display: "flex", gap: 1, justifyContent: "flex-end", flexWrap: "wrap" }}>
          {props.formActions?.(form, editing)}
          <Button color="inherit" onClick={reset} data-testid={`${testId}-clear`}>
            {editing ? texts.cancel : texts.clear}
          </Button>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting} data-testid={`${testId}-save`}>
            {editing ? texts.update : texts.save}
          </Button>
        </Box>
      </Box>
      <Box sx={{ display: "flex", flexDirection: "column", maxHeight: props.maxTableHeight ?? 480 }}>
        <ListTable
          testId={props.tableTestId}
          columns={props.columns}
          actionsLabel={texts.actions}
          loading={list.loading}
          empty={list.loading || list.items.length > 0 ? null : texts.empty}
          scrollRef={scroll.ref}
          onScroll={scroll.onScroll}
        >
          {list.items.map((row) => (
            <TableRow
              key={row.id}
              hover
              selected={editing?.id === row.id}
              data-testid={`${testId}-row`}
              {...props.rowData?.(row)}
              sx={props.rowSx?.(row)}
            >
              {props.columns.map((column) => (
                <TableCell
                  key={column.label}
                  align={column.align}
                  sx={{ overflowWrap: "break-word", ...(column.wide ? wideOnly : {}) }}
                >
                  {column.cell(row)}
                </TableCell>
              ))}
              <RowActions
                prefix={testId}
                extra={props.rowExtra?.(row)}
                onEdit={() => startEdit(row)}
                onDelete={remove && (remove.allowed?.(row) ?? true) ? () => confirmDelete.ask(row) : undefined}
              />
            </TableRow>
          ))}
        </ListTable>
      </Box>
      {confirmDelete.dialog}
    </Box>
  );
}
