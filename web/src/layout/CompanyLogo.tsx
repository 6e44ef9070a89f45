import Box from "@mui/material/Box";
import { useTranslation } from "react-i18next";
import { useProtectedImage } from "../api/media";
import charlaLogo from "../assets/charla-logo.svg";
import { useSessionUser } from "../auth/context";

/** The company's own logo when the session says it has one (never asked for otherwise), else Charla's. */
export function CompanyLogo({ height = 32 }: { height?: number }) {
  const { t } = useTranslation("layout");
  const user = useSessionUser();
  const { url, loading } = useProtectedImage(user.company.logo ? `/companies/${user.companyId}/logo` : null);
  if (loading) return <Box sx={{ height, width: height * 3 }} />;
  return (
    <Box
      component="img"
      src={url ?? charlaLogo}
      alt={t("companyLogo", { company: user.company.name })}
      sx={{ height, maxWidth: height * 5, objectFit: "contain", display: "block" }}
    />
  );
}
