import { CompanySchedulesForm, type ScheduleEntry } from "@charla/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCompanySchedules, useSaveCompanySchedules } from "../../api/company-schedules";
import { toastError } from "../../api/errors";
import { useAuth, useSessionUser } from "../../auth/context";
import { SectionLoader } from "../../components/FullPageLoader";
import { SchedulesEditor } from "../../components/schedules/SchedulesEditor";
import { TimeZonePicker } from "../../components/schedules/TimeZonePicker";
import { toast } from "../../lib/toast";

/** core §2 Settings → Horarios (scheduleType = company): the company's week and its time zone. */
export function SchedulesTab() {
  const { t } = useTranslation(["settings", "queues"]);
  const me = useSessionUser();
  const { updateUser } = useAuth();
  const companyId = me.companyId;
  const current = useCompanySchedules(companyId);
  const save = useSaveCompanySchedules(companyId);
  const [schedules, setSchedules] = useState<ScheduleEntry[] | null>(null);
  const [zone, setZone] = useState<string | null>(null);
  const [invalid, setInvalid] = useState(false);

  useEffect(() => {
    if (!current.data) return;
    setSchedules((mine) => mine ?? current.data.schedules);
    setZone((mine) => mine ?? current.data.timeZone);
  }, [current.data]);

  if (!schedules || zone === null) return <SectionLoader />;

  const submit = async () => {
    const parsed = CompanySchedulesForm.safeParse({ schedules, zone_time: zone });
    setInvalid(!parsed.success);
    if (!parsed.success) {
      toast.error(t("common:validation.invalid"));
      return;
    }
    try {
      const saved = await save.mutateAsync(parsed.data);
      // every date of the web is on this clock from now on (the company's socket event says so too)
      updateUser({ company: { ...me.company, timeZone: saved.timeZone } });
      toast.success(t("schedules.saved"));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2.5 }} data-testid="company-schedules">
      <TimeZonePicker label={t("queues:hours.timeZone")} value={zone} onChange={setZone} testId="company-zone" />
      <SchedulesEditor value={schedules} onChange={setSchedules} invalid={() => invalid} testId="company-schedules-week" />
      <Box>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={save.isPending}
          startIcon={save.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
          data-testid="company-schedules-save"
        >
          {t("common:actions.save")}
        </Button>
      </Box>
    </Box>
  );
}
