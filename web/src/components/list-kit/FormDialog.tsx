import { zodResolver } from "@hookform/resolvers/zod";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { type ReactNode, useEffect, useRef } from "react";
import {
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Resolver,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import type { z } from "zod";
import { toastError } from "../../api/errors";
import { validationIssues } from "../../api/errors";
import { SectionLoader } from "../FullPageLoader";
import { FormDialogActions } from "../form/FormDialogActions";

type Props<V extends FieldValues> = {
  open: boolean;
  onClose: () => void;
  title: string;
  /** `data-testid` of the dialog; the buttons are `{testId}-save` / `{testId}-cancel` unless given. */
  testId: string;
  submitLabel: string;
  /** Nothing in the record may change now: no save button, and the form does not submit. */
  readOnly?: boolean;
  submitTestId?: string;
  cancelTestId?: string;
  /** The one contracts schema of this form: the same checks as the API's. */
  schema: z.ZodType;
  defaultValues: V;
  /** The record's values once loaded (editing): the form takes them when they first arrive. */
  loaded?: V | null;
  loading?: boolean;
  /** The record could not be loaded: said once, with the shared error texts. */
  loadError?: unknown;
  /** Throws the API's error: its field issues go back beside their fields, the rest is toasted. */
  onSubmit: (values: V, form: UseFormReturn<V>) => Promise<void>;
  children: (form: UseFormReturn<V>) => ReactNode;
  /** Above the fields, outside the scrolling content (tabs). */
  header?: ReactNode;
  maxWidth?: "xs" | "sm" | "md";
};

/**
 * The API's zod issues (`issues[].path`) onto the fields they name: a nested one on its cell
 * ("extraInfo.3.value"), one about a whole list on the list ("extraInfo.root"); true when any landed.
 */
export function applyIssues<V extends FieldValues>(error: unknown, form: UseFormReturn<V>, defaults: V): boolean {
  let applied = false;
  for (const issue of validationIssues(error)) {
    const [first, ...rest] = issue.path.split(".");
    if (!(first in defaults)) continue;
    const path = rest.length ? issue.path : Array.isArray(defaults[first]) ? `${first}.root` : first;
    form.setError(path as FieldPath<V>, { type: "server", message: issue.message });
    applied = true;
  }
  return applied;
}

/**
 * A create / edit dialog: a form element holding the fields, validated by the area's contracts schema,
 * its server errors mapped back onto the fields, cancel and save at the bottom (full screen on phones).
 */
export function FormDialog<V extends FieldValues>(props: Props<V>) {
  const { open, onClose, testId, loaded, loading = false } = props;
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  // the schema may change while the dialog is open (a user created becomes a user edited)
  const schema = useRef(props.schema);
  schema.current = props.schema;
  const resolver: Resolver<V> = (values, context, options) =>
    (zodResolver(schema.current as never) as unknown as Resolver<V>)(values, context, options);
  const form = useForm<V>({ resolver, defaultValues: props.defaultValues as DefaultValues<V> });
  const { reset } = form;

  useEffect(() => {
    if (props.loadError) toastError(props.loadError);
  }, [props.loadError]);

  // filled once when the record arrives: a live update meanwhile does not overwrite what is being typed
  const filled = useRef(false);
  useEffect(() => {
    if (!loaded || filled.current) return;
    filled.current = true;
    reset(loaded);
  }, [loaded, reset]);

  const submit = form.handleSubmit(async (values) => {
    if (props.readOnly) return;
    try {
      await props.onSubmit(values, form);
    } catch (error) {
      applyIssues(error, form, props.defaultValues);
      toastError(error);
    }
  });

  const busy = form.formState.isSubmitting;
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth={props.maxWidth ?? "sm"}
      fullScreen={narrow}
      slotProps={{ paper: { component: "form", noValidate: true, onSubmit: submit, "data-testid": testId } as object }}
    >
      <DialogTitle>{props.title}</DialogTitle>
      {props.header}
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 2.5 }}>
        {loading ? <SectionLoader /> : props.children(form)}
      </DialogContent>
      <FormDialogActions
        onCancel={onClose}
        busy={busy}
        disabled={loading}
        submitLabel={props.submitLabel}
        readOnly={props.readOnly}
        cancelTestId={props.cancelTestId ?? `${testId}-cancel`}
        submitTestId={props.submitTestId ?? `${testId}-save`}
      />
    </Dialog>
  );
}
