import { PlanFlags, PlanForm } from "@charla/contracts";
import CheckIcon from "@mui/icons-material/Check";
import CloseIcon from "@mui/icons-material/Close";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { type PlanView, planCollection } from "../../api/plans";
import { narrowOnly } from "../../components/ListTable";
import { FormTextField } from "../../components/form/FormTextField";
import { FormTableTab } from "../../components/list-kit/FormTableTab";
import { formatMoney } from "../../i18n/money";
import { FormSwitch } from "./FormControls";

type Flag = (typeof PlanFlags)[number];
type Values = {
  name: string;
  users: number | string;
  connections: number | string;
  queues: number | string;
  value: string;
} & Record<Flag, boolean>;

// secondary §3 Plan: every flag on except OpenAI and integrations
const blank: Values = {
  name: "",
  users: 10,
  connections: 1,
  queues: 10,
  value: "0",
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: false,
};

/** Settings → Planes (secondary §2, super users): limits, price and the seven flags of each plan. */
export function PlansTab() {
  const { t } = useTranslation("settings");
  const client = useQueryClient();
  const list = planCollection.useList("");
  const save = planCollection.useSave();
  const remove = planCollection.useDelete();
  // the Empresas form's plan choices are read again
  const refreshOptions = () => void client.invalidateQueries({ queryKey: planCollection.keys.all });
  const f = (key: string) => t(`plans.fields.${key}`);

  /** The flags as chips; the copy under the name on phones carries no test ids (the wide column has them). */
  const flags = (plan: PlanView, tested = true) => (
    <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
      {PlanFlags.map((flag) => (
        <Chip
          key={flag}
          size="small"
          variant={plan[flag] ? "filled" : "outlined"}
          color={plan[flag] ? "success" : "default"}
          icon={plan[flag] ? <CheckIcon /> : <CloseIcon />}
          label={f(flag)}
          title={`${f(flag)}: ${t(plan[flag] ? "plans.enabled" : "plans.disabled")}`}
          aria-label={`${f(flag)}: ${t(plan[flag] ? "plans.enabled" : "plans.disabled")}`}
          sx={plan[flag] ? undefined : { color: "text.secondary", textDecoration: "line-through" }}
          data-testid={tested ? `plan-flag-${flag}` : undefined}
          data-enabled={plan[flag]}
        />
      ))}
    </Box>
  );

  return (
    <FormTableTab<PlanView, Values>
      testId="plan"
      tableTestId="plans"
      schema={PlanForm}
      blank={blank}
      valuesOf={({ id: _, ...plan }) => plan}
      focusField="name"
      texts={{
        formTitle: t("plans.formTitle"),
        editTitle: t("plans.editTitle"),
        save: t("plans.save"),
        update: t("plans.update"),
        clear: t("plans.clear"),
        cancel: t("plans.cancel"),
        saved: t("plans.saved"),
        saveFailed: t("plans.saveFailed"),
        empty: t("plans.empty"),
        actions: t("plans.columns.actions"),
      }}
      refusedCodes={["ERR_PLAN_NAME_EXISTS"]}
      list={list}
      save={(values, editing) => save.mutateAsync({ id: editing?.id ?? null, values: values as PlanForm })}
      afterSave={refreshOptions}
      remove={{
        title: (plan) => t("plans.deleteTitle", { name: plan.name }),
        message: t("plans.deleteMessage"),
        run: (plan) => remove.mutateAsync(plan.id).then(refreshOptions),
        done: t("plans.deleted"),
      }}
      columns={[
        {
          label: t("plans.columns.name"),
          cell: (plan) => (
            <>
              {plan.name}
              <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary" }}>
                {[
                  formatMoney(plan.value),
                  ...(["users", "connections", "queues"] as const).map((key) => `${t(`plans.columns.${key}`)} ${plan[key]}`),
                ].join(" · ")}
              </Typography>
              <Box sx={{ ...narrowOnly, mt: 0.5 }}>{flags(plan, false)}</Box>
            </>
          ),
        },
        { label: t("plans.columns.users"), wide: true, align: "right", cell: (plan) => plan.users },
        { label: t("plans.columns.connections"), wide: true, align: "right", cell: (plan) => plan.connections },
        { label: t("plans.columns.queues"), wide: true, align: "right", cell: (plan) => plan.queues },
        {
          label: t("plans.columns.value"),
          wide: true,
          align: "right",
          cell: (plan) => (
            <Box component="span" sx={{ whiteSpace: "nowrap" }} data-testid="plan-value">
              {formatMoney(plan.value)}
            </Box>
          ),
        },
        { label: t("plans.columns.flags"), wide: true, cell: (plan) => flags(plan) },
      ]}
      fields={(form) => (
        <>
          <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr 1fr", md: "2fr repeat(3, 1fr) 1.4fr" } }}>
            <Box sx={{ gridColumn: { xs: "1 / -1", md: "auto" } }}>
              <FormTextField control={form.control} name="name" label={f("name")} required fullWidth testId="plan-name" />
            </Box>
            {(["users", "connections", "queues"] as const).map((key) => (
              <FormTextField
                key={key}
                control={form.control}
                name={key}
                label={f(key)}
                type="number"
                fullWidth
                testId={`plan-${key}`}
                slotProps={{ htmlInput: { min: 0, inputMode: "numeric" } }}
              />
            ))}
            <FormTextField
              control={form.control}
              name="value"
              label={f("value")}
              fullWidth
              testId="plan-value-input"
              slotProps={{ htmlInput: { inputMode: "decimal" } }}
            />
          </Box>
          <Typography variant="overline" sx={{ color: "text.secondary", lineHeight: 1.5 }}>
            {f("flags")}
          </Typography>
          <Box sx={{ display: "grid", gap: 0.5, gridTemplateColumns: { xs: "1fr 1fr", md: "repeat(4, 1fr)" } }}>
            {PlanFlags.map((flag) => (
              <FormSwitch key={flag} control={form.control} name={flag} label={f(flag)} testId={`plan-${flag}`} />
            ))}
          </Box>
        </>
      )}
    />
  );
}
