import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type DashboardQuery, useDashboard, useTicketsPerHour } from "../../api/dashboard";
import { useSessionUser } from "../../auth/context";
import { subscriptionDaysLeft, subscriptionWarningText } from "../../auth/subscription";
import { SectionLoader } from "../../components/FullPageLoader";
import { PageContainer } from "../../components/PageContainer";
import { AttendantsTable } from "./AttendantsTable";
import { ClosedTicketsTable } from "./ClosedTicketsTable";
import { CounterCards } from "./CounterCards";
import { DashboardFilterBar, initialQuery } from "./DashboardFilterBar";
import { DueDateCard } from "./DueDateCard";
import { TicketsPerHourChart } from "./TicketsPerHourChart";

/** The filter, the counters and the tables; `today` is the company's (its zone), as the server counts. */
function PeriodSection({ today }: { today: string }) {
  const [filter, setFilter] = useState<DashboardQuery | null>(() => initialQuery(today));
  return (
    <>
      <DashboardFilterBar today={today} onChange={setFilter} />
      {filter ? <PeriodNumbers filter={filter} /> : <FilterRequired />}
    </>
  );
}

/** core §5: no days and no dates is no period, so no numbers (the last ones would be another period's). */
function FilterRequired() {
  const { t } = useTranslation("home");
  return (
    <Alert severity="info" data-testid="dashboard-filter-required">
      {t("filter.required")}
    </Alert>
  );
}

function PeriodNumbers({ filter }: { filter: DashboardQuery }) {
  const { data } = useDashboard(filter);
  return (
    <>
      <CounterCards counters={data?.counters} />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", lg: "1fr 1fr" }, alignItems: "start" }}>
        <AttendantsTable attendants={data?.attendants} />
        <ClosedTicketsTable filter={filter} />
      </Box>
    </>
  );
}

/** core §2 Dashboard (route /, admin and subadmin): due date, today's chart, filter, counters, tables. */
export default function HomePage() {
  const { t } = useTranslation("home");
  const daysLeft = subscriptionDaysLeft(useSessionUser().company.dueDate);
  // the chart's answer names the company's today: the default period ends there
  const today = useTicketsPerHour().data?.date;

  return (
    <PageContainer title={t("title")}>
      {daysLeft !== null && (
        <Alert severity="warning" data-testid="subscription-warning">
          {subscriptionWarningText(daysLeft)}
        </Alert>
      )}
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 2fr" }, alignItems: "stretch" }}>
        <DueDateCard />
        <TicketsPerHourChart />
      </Box>
      {today ? <PeriodSection today={today} /> : <SectionLoader />}
    </PageContainer>
  );
}
