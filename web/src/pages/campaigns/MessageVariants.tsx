import { CAMPAIGN_VARIANTS } from "@charla/contracts";
import Box from "@mui/material/Box";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import { useEffect, useRef, useState } from "react";
import { type UseFormReturn, useFormState, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../components/form/FormTextField";
import { type CampaignValues, confirmationField, type MessageField, messageField, type Variant } from "./campaign-form";
import { VariableChips } from "./VariableChips";

type Props = {
  form: UseFormReturn<CampaignValues>;
  /** Read-only campaigns show their texts without letting them change. */
  disabled: boolean;
};

/** Where a chip's `{key}` goes: the message field last typed in, at its caret. */
type Target = { name: MessageField; input: HTMLTextAreaElement | HTMLInputElement };

/**
 * secondary §2, §9: five message variants (one is picked per contact) and, with confirmation on, the
 * five confirmation texts beside them, one tab per variant; the variable chips insert into the field
 * being edited.
 */
export function MessageVariants({ form, disabled }: Props) {
  const { t } = useTranslation("campaigns");
  const [variant, setVariant] = useState<Variant>(1);
  const confirmation = useWatch({ control: form.control, name: "confirmation" });
  const { errors, submitCount } = useFormState({ control: form.control });
  const target = useRef<Target | null>(null);
  const hasError = (v: Variant) => !!errors[messageField(v)] || !!errors[confirmationField(v)];
  const hasErrorRef = useRef(hasError);
  hasErrorRef.current = hasError;

  // a refused save shows the variant holding the error when the open one has none; only on a save,
  // not while typing (re-validation), so a tab the user chose stays open
  useEffect(() => {
    if (submitCount === 0) return;
    const erring = hasErrorRef.current;
    setVariant((open) => (erring(open) ? open : (CAMPAIGN_VARIANTS.find(erring) ?? open)));
  }, [submitCount]);

  const insert = (key: string) => {
    const token = `{${key}}`;
    const name = target.current?.name ?? messageField(variant);
    const input = target.current?.input ?? null;
    const current = form.getValues(name) ?? "";
    const start = input?.selectionStart ?? current.length;
    const end = input?.selectionEnd ?? current.length;
    form.setValue(name, current.slice(0, start) + token + current.slice(end), {
      shouldDirty: true,
      shouldValidate: form.formState.isSubmitted,
    });
    requestAnimationFrame(() => {
      input?.focus();
      input?.setSelectionRange(start + token.length, start + token.length);
    });
  };

  const field = (name: MessageField, label: string) => (
    <FormTextField
      key={name}
      control={form.control}
      name={name}
      label={label}
      multiline
      minRows={3}
      maxRows={8}
      fullWidth
      disabled={disabled}
      onFocus={(event) => {
        target.current = { name, input: event.target };
      }}
      testId={`campaign-${name}`}
    />
  );

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
      <VariableChips disabled={disabled} onPick={insert} />
      <Tabs
        value={variant}
        onChange={(_, next: Variant) => {
          target.current = null;
          setVariant(next);
        }}
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: "divider" }}
      >
        {CAMPAIGN_VARIANTS.map((v) => (
          <Tab
            key={v}
            value={v}
            label={t("modal.variant", { n: v })}
            sx={hasError(v) ? { color: "error.main" } : undefined}
            data-testid={`campaign-variant-${v}`}
          />
        ))}
      </Tabs>
      {field(messageField(variant), t("modal.message", { n: variant }))}
      {confirmation && field(confirmationField(variant), t("modal.confirmationMessage", { n: variant }))}
    </Box>
  );
}
