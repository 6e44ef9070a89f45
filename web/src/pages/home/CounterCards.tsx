import type { DashboardCounters } from "@charla/contracts";
import AccessTimeIcon from "@mui/icons-material/AccessTime";
import CheckCircleIcon from "@mui/icons-material/CheckCircleOutlined";
import GroupAddIcon from "@mui/icons-material/GroupAddOutlined";
import HourglassIcon from "@mui/icons-material/HourglassEmptyOutlined";
import ForumIcon from "@mui/icons-material/ForumOutlined";
import TimerIcon from "@mui/icons-material/TimerOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { durationParts } from "./format";

function Counter({ testId, icon, label, value }: { testId: string; icon: ReactNode; label: string; value: string }) {
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent sx={{ display: "flex", alignItems: "center", gap: 2 }}>
        <Box sx={{ color: "primary.main", display: "flex" }}>{icon}</Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="body2" sx={{ color: "text.secondary" }}>
            {label}
          </Typography>
          <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-testid={`${testId}-value`}>
            {value}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}

/** The six counters of the period (behaviours: Dashboard counters); times as "HH h mm m" (core §9). */
export function CounterCards({ counters: view }: { counters: DashboardCounters | undefined }) {
  const { t } = useTranslation("home");
  const n = (v: number | undefined) => (v === undefined ? "–" : String(v));
  const time = (v: number | undefined) => (v === undefined ? "–" : t("duration", durationParts(v)));
  const cards = [
    { id: "pending", icon: <HourglassIcon fontSize="large" />, value: n(view?.supportPending) },
    { id: "happening", icon: <ForumIcon fontSize="large" />, value: n(view?.supportHappening) },
    { id: "finished", icon: <CheckCircleIcon fontSize="large" />, value: n(view?.supportFinished) },
    { id: "leads", icon: <GroupAddIcon fontSize="large" />, value: n(view?.leads) },
    { id: "supportTime", icon: <AccessTimeIcon fontSize="large" />, value: time(view?.avgSupportTime) },
    { id: "waitTime", icon: <TimerIcon fontSize="large" />, value: time(view?.avgWaitTime) },
  ];
  return (
    <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "repeat(3, 1fr)" } }}>
      {cards.map((c) => (
        <Counter key={c.id} testId={`counter-${c.id}`} icon={c.icon} label={t(`counters.${c.id}`)} value={c.value} />
      ))}
    </Box>
  );
}
