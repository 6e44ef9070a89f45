import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { InstantField, type InstantParts } from "../../components/form/InstantField";
import { validationText } from "../../lib/validation";
import type { CampaignValues } from "./campaign-form";
import { fromLocalInput, toLocalInput } from "./campaign-rules";

/** The campaign's clock is the browser's: its local time with its offset. */
const toParts = (iso: string): InstantParts => {
  const local = toLocalInput(iso);
  return { date: local.slice(0, 10), time: local.slice(11, 16) };
};
const fromParts = ({ date, time }: InstantParts) => fromLocalInput(`${date}T${time}`);

/** "Programar para": scheduledAt in the browser's local time; both empty keeps the campaign a draft. */
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
          toParts={toParts}
          fromParts={fromParts}
          allowEmpty
          disabled={disabled}
          error={validationText(fieldState.error?.message)}
          help={disabled ? "" : t("modal.scheduledAtHelp")}
          labels={{ date: t("modal.scheduledAt"), time: t("modal.scheduledTime"), pick: t("modal.pickDate") }}
          testIds={{ date: "campaign-scheduled-date", time: "campaign-scheduled-time", help: "campaign-scheduled-help" }}
        />
      )}
    />
  );
}
