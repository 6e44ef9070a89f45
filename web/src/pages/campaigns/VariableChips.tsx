import { CAMPAIGN_BUILTIN_VARIABLES } from "@charla/contracts";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useCampaignSettings } from "../../api/campaigns";

type Props = { disabled: boolean; onPick: (key: string) => void };

/**
 * secondary §9: {name}, {phone}, {email} and the company's custom variables (campaign settings), each a
 * chip that puts `{key}` into the message being written.
 */
export function VariableChips({ disabled, onPick }: Props) {
  const { t } = useTranslation("campaigns");
  const settings = useCampaignSettings();
  const variables = [
    ...CAMPAIGN_BUILTIN_VARIABLES.map((key) => ({ key, hint: t(`variables.${key}`) })),
    ...(settings.data?.variables ?? []).map((v) => ({ key: v.key, hint: v.value })),
  ];
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 0.75 }} data-testid="campaign-variables">
      <Typography variant="body2" color="text.secondary" sx={{ mr: 0.5 }}>
        {t("modal.variables")}
      </Typography>
      {variables.map(({ key, hint }) => (
        <Tooltip key={key} title={hint}>
          <span>
            <Chip
              label={`{${key}}`}
              size="small"
              variant="outlined"
              color="primary"
              disabled={disabled}
              // keeps the caret in the message field: the chip inserts where it is
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onPick(key)}
              data-testid="campaign-variable"
              data-key={key}
            />
          </span>
        </Tooltip>
      ))}
    </Box>
  );
}
