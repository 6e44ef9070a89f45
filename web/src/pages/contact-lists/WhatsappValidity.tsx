import ValidIcon from "@mui/icons-material/CheckCircle";
import InvalidIcon from "@mui/icons-material/Cancel";
import CheckingIcon from "@mui/icons-material/Schedule";
import Tooltip from "@mui/material/Tooltip";
import { useTranslation } from "react-i18next";

const STATES = {
  valid: { Icon: ValidIcon, color: "success.main" },
  invalid: { Icon: InvalidIcon, color: "error.main" },
  checking: { Icon: CheckingIcon, color: "text.disabled" },
} as const;

/**
 * secondary §2: whether a list's number has WhatsApp. `null` is a number not asked about yet (the
 * company's connection checks each one in the background, and the answer arrives live).
 */
export function WhatsappValidity({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation("contact-lists");
  const state = valid === null ? "checking" : valid ? "valid" : "invalid";
  const { Icon, color } = STATES[state];
  const label = t(`items.validity.${state}`);
  return (
    <Tooltip title={label}>
      <Icon
        fontSize="small"
        role="img"
        aria-label={label}
        aria-hidden={false}
        sx={{ color, verticalAlign: "middle" }}
        data-testid="contact-list-item-validity"
        data-validity={state}
      />
    </Tooltip>
  );
}
