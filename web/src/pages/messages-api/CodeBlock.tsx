import CopyIcon from "@mui/icons-material/ContentCopy";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";
import { toast } from "../../lib/toast";

/** A code example the user copies as it is (a curl command, a JSON body). */
export function CodeBlock({ code, testId }: { code: string; testId?: string }) {
  const { t } = useTranslation("messagesApi");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toast.success(t("copied"), { autoClose: 1000 });
    } catch {
      toast.error(t("copyFailed"));
    }
  };
  return (
    <Box sx={{ position: "relative" }}>
      <Box
        component="pre"
        data-testid={testId}
        sx={{
          m: 0,
          p: 1.5,
          pr: 5,
          borderRadius: 1,
          bgcolor: (theme) => (theme.palette.mode === "dark" ? "grey.900" : "grey.100"),
          border: 1,
          borderColor: "divider",
          fontFamily: "monospace",
          fontSize: "0.8rem",
          overflowX: "auto",
          whiteSpace: "pre",
        }}
      >
        {code}
      </Box>
      <Tooltip title={t("copy")}>
        <IconButton
          size="small"
          aria-label={t("copy")}
          onClick={() => void copy()}
          sx={{ position: "absolute", top: 4, right: 4 }}
          data-testid={testId ? `${testId}-copy` : undefined}
        >
          <CopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
