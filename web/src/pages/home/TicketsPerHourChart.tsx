import { useTheme } from "@mui/material/styles";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTicketsPerHour } from "../../api/dashboard";

/** core §2: today's tickets in 24 hourly buckets (company zone). recharts lives in this page's chunk only. */
export function TicketsPerHourChart() {
  const { t } = useTranslation("home");
  const theme = useTheme();
  const { data } = useTicketsPerHour();
  const hours = data?.hours ?? Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 }));
  const points = hours.map((h) => ({ label: String(h.hour).padStart(2, "0"), count: h.count }));
  const total = hours.reduce((n, h) => n + h.count, 0);
  return (
    <Card variant="outlined" data-testid="tickets-per-hour">
      <CardContent>
        <Typography variant="h6" component="h2">
          {t("chart.title")}
        </Typography>
        <Typography sx={{ color: "text.secondary", mb: 1 }} data-testid="tickets-per-hour-total">
          {t("chart.total", { count: total })}
        </Typography>
        <ResponsiveContainer width="100%" height={240}>
          <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} interval={1} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} />
            <Tooltip
              formatter={(value) => [value, t("chart.tickets")]}
              labelFormatter={(label) => t("chart.hour", { hour: label })}
            />
            <Bar dataKey="count" fill={theme.palette.primary.main} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </CardContent>
    </Card>
  );
}
