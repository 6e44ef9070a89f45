import { type CloudConnectionView, ConnectionProviders, type QueueRef } from "@charla/contracts";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Divider from "@mui/material/Divider";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Control, Controller, type FieldPath, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { AutomationFormPickers, useAutomationChoices } from "../../components/automation/AutomationSelect";
import { FormTextField } from "../../components/form/FormTextField";
import { validationText } from "../../lib/validation";
import { CloudConnectionFields } from "./CloudConnectionFields";
import type { ConnectionFormValues } from "./connection-form";

type Props = {
  control: Control<ConnectionFormValues>;
  isNew: boolean;
  /** The saved default cannot be switched off here: another connection takes the role instead. */
  defaultLocked: boolean;
  queues: QueueRef[];
  /** A saved Cloud API connection's settings (masked secrets, webhook URL). */
  cloud: CloudConnectionView | null;
};

const twoColumns = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr" } };

function Section({ title }: { title: string }) {
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1.5, mt: 0.5 }}>
      <Typography variant="overline" sx={{ color: "text.secondary", lineHeight: 1.5, whiteSpace: "nowrap" }}>
        {title}
      </Typography>
      <Divider sx={{ flex: 1 }} />
    </Box>
  );
}

/** core §5 Connection form and §9 defaults; provider only when the connection is created. */
export function ConnectionFormFields({ control, isNew, defaultLocked, queues, cloud }: Props) {
  const { t } = useTranslation("connections");
  const choices = useAutomationChoices();
  const isCloud = useWatch({ control, name: "provider" }) === "cloud";

  const message = (name: FieldPath<ConnectionFormValues>, testId?: string, helperText?: string) => (
    <FormTextField
      control={control}
      name={name}
      label={t(`modal.${name}`)}
      helperText={helperText}
      multiline
      minRows={2}
      maxRows={8}
      fullWidth
      testId={testId}
    />
  );

  const count = (name: FieldPath<ConnectionFormValues>, testId: string, helperText?: string) => (
    <FormTextField
      control={control}
      name={name}
      label={t(`modal.${name}`)}
      helperText={helperText}
      type="number"
      fullWidth
      testId={testId}
    />
  );

  const queueSelect = (
    <Controller
      name="queueIds"
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          select
          label={t("modal.queues")}
          fullWidth
          value={field.value}
          onChange={(event) => field.onChange(event.target.value as unknown as number[])}
          onBlur={field.onBlur}
          error={!!fieldState.error}
          helperText={validationText(fieldState.error?.message)}
          slotProps={{
            select: {
              multiple: true,
              displayEmpty: true,
              SelectDisplayProps: { "data-testid": "connection-queues" } as object,
              renderValue: (selected) => {
                const chosen = queues.filter((queue) => (selected as number[]).includes(queue.id));
                if (chosen.length === 0) return <Box sx={{ color: "text.secondary" }}>{t("modal.queuesNone")}</Box>;
                return (
                  <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
                    {chosen.map((queue) => (
                      <Chip
                        key={queue.id}
                        label={queue.name}
                        size="small"
                        sx={{ bgcolor: queue.color, color: (theme) => theme.palette.getContrastText(queue.color) }}
                      />
                    ))}
                  </Box>
                );
              },
            },
            inputLabel: { shrink: true },
          }}
        >
          {queues.map((queue) => (
            <MenuItem key={queue.id} value={queue.id}>
              {queue.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Box sx={twoColumns}>
        <FormTextField
          control={control}
          name="name"
          label={t("modal.name")}
          autoFocus
          autoComplete="off"
          fullWidth
          testId="connection-name"
        />
        <FormTextField
          control={control}
          name="number"
          label={t("modal.number")}
          helperText={t(isCloud ? "cloud.numberHelp" : "modal.numberHelp")}
          placeholder="5215512345678"
          type="tel"
          autoComplete="off"
          fullWidth
          testId="connection-number"
        />
      </Box>
      <Box sx={{ ...twoColumns, alignItems: "center" }}>
        {isNew && (
          <Controller
            name="provider"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                {...field}
                inputRef={field.ref}
                select
                label={t("modal.provider")}
                fullWidth
                error={!!fieldState.error}
                helperText={validationText(fieldState.error?.message)}
                slotProps={{ select: { SelectDisplayProps: { "data-testid": "connection-provider" } as object } }}
              >
                {ConnectionProviders.map((provider) => (
                  <MenuItem key={provider} value={provider} data-testid={`connection-provider-${provider}`}>
                    {t(`modal.providers.${provider}`)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        )}
        <Controller
          name="isDefault"
          control={control}
          render={({ field }) => (
            <Box>
              <FormControlLabel
                label={t("modal.isDefault")}
                disabled={defaultLocked}
                control={
                  <Switch
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                    slotProps={{ input: { "data-testid": "connection-default" } as object }}
                  />
                }
              />
              {defaultLocked && <FormHelperText sx={{ mt: 0 }}>{t("modal.isDefaultLocked")}</FormHelperText>}
            </Box>
          )}
        />
      </Box>
      {queueSelect}

      {isCloud && (
        <>
          <Section title={t("cloud.section")} />
          <CloudConnectionFields control={control} saved={cloud} />
        </>
      )}

      <Section title={t("modal.sectionMessages")} />
      {message("greetingMessage", "connection-greeting", t("modal.greetingHelp"))}
      <Box sx={twoColumns}>
        {message("complationMessage", "connection-completion")}
        {message("transferMessage", "connection-transfer")}
        {message("outOfHoursMessage", "connection-out-of-hours")}
        {message("ratingMessage", "connection-rating")}
      </Box>

      <Section title={t("modal.sectionRouting")} />
      <Box sx={twoColumns}>
        <Controller
          name="sendIdQueue"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              select
              label={t("modal.sendIdQueue")}
              fullWidth
              value={field.value ?? ""}
              onChange={(event) => field.onChange(event.target.value === "" ? null : Number(event.target.value))}
              onBlur={field.onBlur}
              error={!!fieldState.error}
              helperText={validationText(fieldState.error?.message)}
              slotProps={{
                // "do not transfer" is a real choice (value ""), so it is displayed like any other
                select: { displayEmpty: true, SelectDisplayProps: { "data-testid": "connection-send-queue" } as object },
                inputLabel: { shrink: true },
              }}
            >
              <MenuItem value="">{t("modal.sendIdQueueNone")}</MenuItem>
              {queues.map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {count("timeSendQueue", "connection-time-send-queue")}
        {count("maxUseBotQueues", "connection-max-bot")}
        {count("timeUseBotQueues", "connection-time-bot")}
        <AutomationFormPickers
          control={control}
          choices={choices}
          labels={{ integration: t("modal.integration"), prompt: t("modal.prompt"), none: t("modal.none") }}
          testIdPrefix="connection"
          help={t("modal.promptHelp")}
        />
      </Box>

      <Section title={t("modal.sectionExpiry")} />
      <Box sx={{ ...twoColumns, gridTemplateColumns: { xs: "1fr", sm: "1fr 2fr" }, alignItems: "start" }}>
        {count("expiresTicket", "connection-expires-ticket", t("modal.expiresTicketHelp"))}
        {message("expiresInactiveMessage", "connection-expires-message")}
      </Box>
    </Box>
  );
}
