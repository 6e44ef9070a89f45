import { CampaignVariable, type CampaignSettings } from "@charla/contracts";
import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { type Control, useFieldArray } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { validationText } from "../../lib/validation";

type Props = { control: Control<CampaignSettings> };

/**
 * The company's custom message variables: `{key}` in a campaign message becomes its value. A key is
 * checked as the API checks it, and one already in the list is not added (secondary §5).
 */
export function CampaignVariablesEditor({ control }: Props) {
  const { t } = useTranslation("campaigns");
  const variables = useFieldArray({ control, name: "variables" });
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [keyError, setKeyError] = useState<string | undefined>();

  const add = () => {
    const parsed = CampaignVariable.safeParse({ key, value });
    if (!parsed.success) {
      setKeyError(parsed.error.issues[0]?.message);
      return;
    }
    if (variables.fields.some((v) => v.key === parsed.data.key)) {
      setKeyError("validation.duplicateKey");
      return;
    }
    variables.append(parsed.data);
    setKey("");
    setValue("");
    setKeyError(undefined);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Box sx={{ display: "flex", gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}>
        <TextField
          label={t("settings.key")}
          value={key}
          onChange={(event) => {
            setKey(event.target.value);
            setKeyError(undefined);
          }}
          error={!!keyError}
          helperText={validationText(keyError) ?? t("settings.keyHelp")}
          sx={{ flex: "1 1 200px" }}
          slotProps={{ htmlInput: { "data-testid": "campaign-variable-key" } }}
        />
        <TextField
          label={t("settings.value")}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          sx={{ flex: "2 1 280px" }}
          slotProps={{ htmlInput: { "data-testid": "campaign-variable-value" } }}
        />
        <Button variant="outlined" startIcon={<AddIcon />} onClick={add} sx={{ height: 56 }} data-testid="campaign-variable-add">
          {t("settings.addVariable")}
        </Button>
      </Box>
      {variables.fields.length === 0 ? (
        <Typography color="text.secondary" data-testid="campaign-variables-empty">
          {t("settings.noVariables")}
        </Typography>
      ) : (
        <Table size="small" data-testid="campaign-variables-table">
          <TableHead>
            <TableRow>
              <TableCell>{t("settings.key")}</TableCell>
              <TableCell>{t("settings.value")}</TableCell>
              <TableCell align="right">{t("columns.actions")}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {variables.fields.map((variable, index) => (
              <TableRow key={variable.id} data-testid="campaign-variable-row" data-key={variable.key}>
                <TableCell sx={{ fontFamily: "monospace" }}>{`{${variable.key}}`}</TableCell>
                <TableCell sx={{ wordBreak: "break-word" }}>{variable.value}</TableCell>
                <TableCell align="right">
                  <Tooltip title={t("settings.removeVariable")}>
                    <IconButton
                      size="small"
                      aria-label={t("settings.removeVariable")}
                      onClick={() => variables.remove(index)}
                      data-testid="campaign-variable-remove"
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
