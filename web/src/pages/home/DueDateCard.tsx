import EventIcon from "@mui/icons-material/EventOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useSessionUser } from "../../auth/context";
import { formatDate } from "../../lib/company-time";

/** The company's subscription due date (core §2 Dashboard), from the session user. */
export function DueDateCard() {
  const { t } = useTranslation("home");
  const dueDate = useSessionUser().company.dueDate;
  return (
    <Card variant="outlined" data-testid="home-due-date" sx={{ height: "100%" }}>
      <CardContent sx={{ display: "flex", gap: 2, alignItems: "center" }}>
        <Box sx={{ color: "primary.main", display: "flex" }}>
          <EventIcon fontSize="large" />
        </Box>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h2">
            {t("subscription")}
          </Typography>
          <Typography sx={{ color: "text.secondary" }}>
            {dueDate ? t("dueDate", { date: formatDate(dueDate) }) : t("noDueDate")}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}
