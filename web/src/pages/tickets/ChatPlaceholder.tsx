import ChatIcon from "@mui/icons-material/ForumOutlined";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { CompanyLogo } from "../../layout/CompanyLogo";

/** The right column while no ticket is selected (core §2): the company's logo and a hint. */
export function ChatPlaceholder() {
  const { t } = useTranslation("tickets");
  return (
    <Box
      data-testid="tickets-chat-placeholder"
      sx={{
        flex: 1,
        display: "flex",
        flexDirection: "column",
        alignItems: "center",
        justifyContent: "center",
        gap: 2,
        p: 4,
        textAlign: "center",
        bgcolor: (theme) => (theme.palette.mode === "dark" ? "#0b141a" : "#f0f2f5"),
        borderBottom: 6,
        borderColor: "primary.main",
      }}
    >
      <CompanyLogo height={72} />
      <Typography variant="h6" sx={{ fontWeight: 500, mt: 1 }}>
        {t("placeholder.title")}
      </Typography>
      <Typography variant="body2" sx={{ color: "text.secondary", maxWidth: 380, display: "flex", gap: 1, alignItems: "center" }}>
        <ChatIcon fontSize="small" />
        {t("placeholder.hint")}
      </Typography>
    </Box>
  );
}
