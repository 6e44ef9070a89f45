import {
  type CampaignSettings,
  CampaignSettingsForm,
  DEFAULT_CAMPAIGN_SETTINGS,
  LONGER_INTERVALS,
  MESSAGE_INTERVALS,
} from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import SaveIcon from "@mui/icons-material/SaveOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type ReactNode, useEffect } from "react";
import { type Control, Controller, type Resolver, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useCampaignSettings, useSaveCampaignSettings } from "../../api/campaigns";
import { toastError } from "../../api/errors";
import { SectionLoader } from "../../components/FullPageLoader";
import { PageContainer } from "../../components/PageContainer";
import { applyIssues } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";
import { CampaignVariablesEditor } from "./CampaignVariablesEditor";

type IntervalName = "messageInterval" | "longerIntervalAfter" | "greaterInterval";

/**
 * secondary §9 choices. longerIntervalAfter counts contacts (every n-th contact waits greaterInterval
 * instead, behaviours: Campaigns), so its options read as a number of messages; 0 leaves it unset.
 */
const intervals: { name: IntervalName; choices: readonly number[]; unit: "seconds" | "messages" }[] = [
  { name: "messageInterval", choices: MESSAGE_INTERVALS, unit: "seconds" },
  { name: "longerIntervalAfter", choices: LONGER_INTERVALS, unit: "messages" },
  { name: "greaterInterval", choices: LONGER_INTERVALS, unit: "seconds" },
];

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, display: "flex", flexDirection: "column", gap: 2 }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

function IntervalSelect({ control, name, choices, unit }: (typeof intervals)[number] & { control: Control<CampaignSettings> }) {
  const { t } = useTranslation("campaigns");
  const labelOf = (n: number) =>
    n === 0 ? t(name === "messageInterval" ? "settings.noInterval" : "settings.notSet") : t(`settings.${unit}`, { count: n });
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <TextField
          select
          label={t(`settings.${name}`)}
          helperText={t(`settings.${name}Help`)}
          fullWidth
          value={field.value}
          onChange={(event) => field.onChange(Number(event.target.value))}
          onBlur={field.onBlur}
          slotProps={{ select: { SelectDisplayProps: { "data-testid": `campaign-settings-${name}` } as object } }}
        >
          {choices.map((n) => (
            <MenuItem key={n} value={n} data-testid={`campaign-settings-${name}-${n}`}>
              {labelOf(n)}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}

/** secondary §2 /campaigns-config: the sending intervals and the custom variables, saved together. */
export default function CampaignSettingsPage() {
  const { t } = useTranslation("campaigns");
  const settings = useCampaignSettings();
  const save = useSaveCampaignSettings();
  const form = useForm<CampaignSettings>({
    resolver: zodResolver(CampaignSettingsForm) as unknown as Resolver<CampaignSettings>,
    defaultValues: DEFAULT_CAMPAIGN_SETTINGS,
  });
  const { reset } = form;

  useEffect(() => {
    if (settings.data) reset(settings.data);
  }, [settings.data, reset]);
  useEffect(() => {
    if (settings.error) toastError(settings.error);
  }, [settings.error]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      toast.success(t("settings.saved"));
    } catch (error) {
      applyIssues(error, form, DEFAULT_CAMPAIGN_SETTINGS);
      toastError(error);
    }
  });

  return (
    <PageContainer title={t("settings.title")}>
      {settings.isLoading ? (
        <SectionLoader />
      ) : (
        <Box component="form" noValidate onSubmit={submit} sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
          <Section title={t("settings.intervals")}>
            <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "repeat(3, 1fr)" } }}>
              {intervals.map((interval) => (
                <IntervalSelect key={interval.name} control={form.control} {...interval} />
              ))}
            </Box>
          </Section>
          <Section title={t("settings.variables")}>
            <CampaignVariablesEditor control={form.control} />
          </Section>
          <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
            <Button
              type="submit"
              variant="contained"
              disabled={save.isPending}
              startIcon={save.isPending ? <CircularProgress size={18} color="inherit" /> : <SaveIcon />}
              data-testid="campaign-settings-save"
            >
              {t("settings.save")}
            </Button>
          </Box>
        </Box>
      )}
    </PageContainer>
  );
}
