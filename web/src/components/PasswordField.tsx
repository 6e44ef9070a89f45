import Visibility from "@mui/icons-material/Visibility";
import VisibilityOff from "@mui/icons-material/VisibilityOff";
import IconButton from "@mui/material/IconButton";
import InputAdornment from "@mui/material/InputAdornment";
import { forwardRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { OutlinedTextField, type OutlinedTextFieldProps } from "./form/OutlinedTextField";

type Props = Omit<OutlinedTextFieldProps, "type"> & { testId?: string };

/** A password input with a show/hide switch; `testId` lands on the <input> for browser tests. */
export const PasswordField = forwardRef<HTMLInputElement, Props>(function PasswordField({ testId, ...props }, ref) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const toggleLabel = t(visible ? "actions.hidePassword" : "actions.showPassword");
  return (
    <OutlinedTextField
      {...props}
      inputRef={ref}
      type={visible ? "text" : "password"}
      slotProps={{
        htmlInput: { "data-testid": testId },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton aria-label={toggleLabel} onClick={() => setVisible((v) => !v)} edge="end" size="small">
                {visible ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
});
