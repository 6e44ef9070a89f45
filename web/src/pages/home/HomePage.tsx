import EventIcon from "@mui/icons-material/EventOutlined";
import WavingHandIcon from "@mui/icons-material/WavingHandOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../../auth/context";
import { subscriptionDaysLeft, subscriptionWarningText } from "../../auth/subscription";
import { formatDate } from "../../i18n/dates";

function InfoCard({ icon, title, body, testId }: { icon: ReactNode; title: string; body: string; testId: string }) {
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent sx={{ display: "flex", gap: 2, alignItems: "center" }}>
        <Box sx={{ color: "primary.main", display: "flex" }}>{icon}</Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          <Typography sx={{ color: "text.secondary" }}>{body}</Typography>
        </Box>
      </CardContent>
    </Card>
  );
}

/** The landing page until the dashboard area arrives: greeting and subscription due date. */
export default function HomePage() {
  const { t } = useTranslation("home");
  const user = useSessionUser();
  const dueDate = user.company.dueDate;
  const daysLeft = subscriptionDaysLeft(dueDate);

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: "flex", flexDirection: "column", gap: 2 }}>
      {daysLeft !== null && (
        <Alert severity="warning" data-testid="subscription-warning">
          {subscriptionWarningText(daysLeft)}
        </Alert>
      )}
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" } }}>
        <InfoCard
          testId="home-greeting"
          icon={<WavingHandIcon fontSize="large" />}
          title={t("greetingTitle", { name: user.name })}
          body={t("greetingBody", { company: user.company.name })}
        />
        <InfoCard
          testId="home-due-date"
          icon={<EventIcon fontSize="large" />}
          title={t("subscription")}
          body={dueDate ? t("dueDate", { date: formatDate(dueDate) }) : t("noDueDate")}
        />
      </Box>
    </Box>
  );
}
