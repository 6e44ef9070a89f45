import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { InstantField } from "../../components/form/InstantField";
import { validationText } from "../../lib/validation";
import type { CampaignValues } from "./campaign-form";

/**
 * "Programar para": scheduledAt on the company's clock, as the list, the report and the schedules read
 * it (issue 40: it was the browser's); both empty keeps the campaign a draft.
 */
export function ScheduleField({ control, disabled }: { control: Control<CampaignValues>; disabled: boolean }) {
  const { t } = useTranslation("campaigns");
  return (
    <Controller
      name="scheduledAt"
      control={control}
      render={({ field, fieldState }) => (
        <InstantField
          value={field.value}
          onChange={field.onChange}
          allowEmpty
          disabled={disabled}
          error={validationText(fieldState.error?.message)}
          help={disabled ? undefined : t("modal.scheduledAtHelp")}
          labels={{ date: t("modal.scheduledAt"), time: t("modal.scheduledTime"), pick: t("modal.pickDate") }}
          testIds={{ date: "campaign-scheduled-date", time: "campaign-scheduled-time", help: "campaign-scheduled-help" }}
        />
      )}
    />
  );
}
