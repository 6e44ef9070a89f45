import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toastError } from "../../api/errors";
import { type HelpView, useHelps } from "../../api/helps";
import { SectionLoader } from "../../components/FullPageLoader";
import { PageContainer } from "../../components/PageContainer";
import { HelpCard } from "./HelpCard";
import { HelpVideoDialog } from "./HelpVideoDialog";

/** /helps (secondary §2): every help video as a card, the count in the title; a card opens its player. */
export default function HelpsPage() {
  const { t } = useTranslation("helps");
  const helps = useHelps();
  const [open, setOpen] = useState<HelpView | null>(null);
  const list = helps.data ?? [];

  useEffect(() => {
    // secondary §8: a list that cannot load says so in these words, whatever the cause
    if (helps.error) toastError(undefined, t("common:feedback.loadList"));
  }, [helps.error, t]);

  return (
    <PageContainer title={helps.data ? t("titleCount", { count: list.length }) : t("title")}>
      {helps.isPending ? (
        <SectionLoader />
      ) : list.length === 0 ? (
        <Typography sx={{ p: 3, textAlign: "center", color: "text.secondary" }} data-testid="helps-empty">
          {t("empty")}
        </Typography>
      ) : (
        <Box
          data-testid="helps-grid"
          sx={{ display: "grid", gap: 2, gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 260px), 1fr))" }}
        >
          {list.map((help) => (
            <HelpCard key={help.id} help={help} onOpen={() => setOpen(help)} />
          ))}
        </Box>
      )}
      <HelpVideoDialog help={open} onClose={() => setOpen(null)} />
    </PageContainer>
  );
}
