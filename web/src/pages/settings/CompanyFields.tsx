import { DefaultColors, Recurrences } from "@charla/contracts";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { PlanView } from "../../api/plans";
import { FormTextField } from "../../components/form/FormTextField";
import { FormColor, FormDate, FormSelect, FormSwitch } from "./FormControls";

export type CompanyValues = {
  name: string;
  email: string;
  phone: string;
  planId: number | "";
  status: boolean;
  campaignsEnabled: boolean;
  dueDate: string;
  recurrence: (typeof Recurrences)[number];
  primaryColor: string;
  headerColor: string;
  pageTitle: string;
  phoneNotification: string;
  billingName: string;
  addressZipCode: string;
  addressStreet: string;
  addressState: string;
  addressCity: string;
  addressDistrict: string;
  /** Only when creating: the first admin's password (CompanyCreateForm). */
  password: string;
};

export const blankCompany: CompanyValues = {
  name: "",
  email: "",
  phone: "",
  planId: "",
  status: true,
  campaignsEnabled: false,
  dueDate: "",
  recurrence: "MENSAL",
  primaryColor: DefaultColors.primary,
  headerColor: DefaultColors.header,
  pageTitle: "",
  phoneNotification: "",
  billingName: "",
  addressZipCode: "",
  addressStreet: "",
  addressState: "",
  addressCity: "",
  addressDistrict: "",
  password: "",
};

const grid = { display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", sm: "1fr 1fr", lg: "repeat(3, 1fr)" } };
const texts = [
  "phoneNotification",
  "billingName",
  "addressZipCode",
  "addressStreet",
  "addressDistrict",
  "addressCity",
  "addressState",
] as const;

/** Every Company field of secondary §3, in groups: who, plan and billing cycle, look, billing address. */
export function CompanyFields({
  form,
  creating,
  plans,
}: {
  form: UseFormReturn<CompanyValues>;
  creating: boolean;
  plans: PlanView[];
}) {
  const { t } = useTranslation("settings");
  const { control } = form;
  const f = (key: string) => t(`companies.fields.${key}`);
  const heading = (key: string) => (
    <Typography variant="overline" sx={{ color: "text.secondary", lineHeight: 1.5 }}>
      {f(key)}
    </Typography>
  );
  return (
    <>
      <Box sx={grid}>
        <FormTextField control={control} name="name" label={f("name")} required testId="company-name" />
        <FormTextField control={control} name="email" label={f("email")} required type="email" testId="company-email" />
        <FormTextField control={control} name="phone" label={f("phone")} testId="company-phone" />
        {creating && (
          <FormTextField
            control={control}
            name="password"
            password
            label={f("password")}
            autoComplete="new-password"
            testId="company-password"
          />
        )}
        <FormSelect
          control={control}
          name="planId"
          label={f("plan")}
          required
          testId="company-plan"
          options={plans.map((plan) => ({ value: plan.id, label: plan.name }))}
        />
        <FormDate control={control} name="dueDate" label={f("dueDate")} testId="company-due-date" pickLabel={f("pickDate")} />
        <FormSelect
          control={control}
          name="recurrence"
          label={f("recurrence")}
          testId="company-recurrence"
          options={Recurrences.map((r) => ({ value: r, label: t(`companies.recurrences.${r}`) }))}
        />
        <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
          <FormSwitch control={control} name="status" label={f("active")} testId="company-status" />
          <FormSwitch control={control} name="campaignsEnabled" label={f("campaignsEnabled")} testId="company-campaigns" />
        </Box>
      </Box>
      {heading("look")}
      <Box sx={grid}>
        <FormColor control={control} name="primaryColor" label={f("primaryColor")} testId="company-primary-color" />
        <FormColor control={control} name="headerColor" label={f("headerColor")} testId="company-header-color" />
        <FormTextField control={control} name="pageTitle" label={f("pageTitle")} testId="company-page-title" />
      </Box>
      {heading("billing")}
      <Box sx={grid}>
        {texts.map((key) => (
          <FormTextField key={key} control={control} name={key} label={f(key)} testId={`company-${key}`} />
        ))}
      </Box>
    </>
  );
}
