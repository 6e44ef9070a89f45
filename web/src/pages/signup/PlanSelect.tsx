import type { PlanView } from "@charla/contracts";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formatMoney } from "../../i18n/money";
import { validationText } from "../../lib/validation";
import type { SignupValues } from "./signup-form";

function PlanText({ plan }: { plan: PlanView }) {
  const { t } = useTranslation("signup");
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: "flex", justifyContent: "space-between", gap: 2 }}>
        <Typography component="span" sx={{ fontWeight: 500 }} noWrap>
          {plan.name}
        </Typography>
        <Typography component="span" sx={{ whiteSpace: "nowrap" }}>
          {t("planValue", { value: formatMoney(plan.value) })}
        </Typography>
      </Box>
      <Typography variant="caption" color="text.secondary" component="div" sx={{ whiteSpace: "normal" }}>
        {t("planLimits", { users: plan.users, connections: plan.connections, queues: plan.queues })}
      </Typography>
    </Box>
  );
}

/** The plan a new company starts on (GET /plans/list): its price in MXN and its limits. */
export function PlanSelect({ control, plans }: { control: Control<SignupValues>; plans: PlanView[] }) {
  const { t } = useTranslation("signup");
  return (
    <Controller
      name="planId"
      control={control}
      render={({ field, fieldState }) => (
        <TextField
          select
          fullWidth
          required
          label={t("plan")}
          value={plans.some((plan) => plan.id === field.value) ? field.value : ""}
          onChange={(event) => field.onChange(Number(event.target.value))}
          onBlur={field.onBlur}
          inputRef={field.ref}
          error={!!fieldState.error}
          helperText={validationText(fieldState.error?.message) ?? (plans.length === 0 ? t("noPlans") : undefined)}
          slotProps={{
            select: {
              renderValue: (id) => {
                const plan = plans.find((p) => p.id === id);
                return plan ? <PlanText plan={plan} /> : "";
              },
              SelectDisplayProps: { "data-testid": "signup-plan" } as object,
            },
          }}
        >
          {plans.map((plan) => (
            <MenuItem key={plan.id} value={plan.id} data-testid={`signup-plan-${plan.id}`} sx={{ display: "block" }}>
              <PlanText plan={plan} />
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );
}
