import { CompanyCreateForm, CompanyUpdateForm, type DueDateTone, addRecurrence, dueDateTone, todayIn } from "@charla/contracts";
import EventRepeatIcon from "@mui/icons-material/EventRepeat";
import LoginIcon from "@mui/icons-material/Login";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { type Theme, alpha } from "@mui/material/styles";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { type CompanyView, companyCollection, swapCompany } from "../../api/companies";
import { toastError } from "../../api/errors";
import { usePlanOptions } from "../../api/plans";
import { useSessionUser } from "../../auth/context";
import { narrowOnly } from "../../components/ListTable";
import { FormTableTab } from "../../components/list-kit/FormTableTab";
import { companyZone, formatDate } from "../../lib/company-time";
import { saveCompanyLook } from "../../theme/preferences";
import { type CompanyValues, CompanyFields, blankCompany } from "./CompanyFields";
import { enterCompany } from "./company-look";

// a blank date field means "no due date"
const noBlankDate = (values: unknown) =>
  values && typeof values === "object" && (values as { dueDate?: unknown }).dueDate === ""
    ? { ...values, dueDate: null }
    : values;
const createSchema = z.preprocess(noBlankDate, CompanyCreateForm);
const updateSchema = z.preprocess(noBlankDate, CompanyUpdateForm);

const toneColors: Record<Exclude<DueDateTone, null>, string> = { yellow: "#facc15", orange: "#f97316", red: "#ef4444" };

/** secondary §4: a tint of the tone that reads in light and dark themes alike (the text keeps its colour). */
function toneSx(tone: DueDateTone) {
  if (!tone) return undefined;
  const color = toneColors[tone];
  return (theme: Theme) => ({
    bgcolor: alpha(color, theme.palette.mode === "dark" ? 0.22 : 0.2),
    "& > td:first-of-type": { boxShadow: `inset 4px 0 0 ${color}` },
  });
}

const toneOf = (company: CompanyView) => dueDateTone(company.dueDate, todayIn(company.timeZone));

const valuesOf = (c: CompanyView): CompanyValues => ({
  name: c.name,
  email: c.email,
  phone: c.phone,
  planId: c.planId,
  status: c.status,
  campaignsEnabled: c.campaignsEnabled,
  dueDate: c.dueDate ?? "",
  recurrence: c.recurrence,
  primaryColor: c.primaryColor,
  headerColor: c.headerColor,
  pageTitle: c.pageTitle,
  phoneNotification: c.phoneNotification,
  billingName: c.billingName,
  addressZipCode: c.addressZipCode,
  addressStreet: c.addressStreet,
  addressState: c.addressState,
  addressCity: c.addressCity,
  addressDistrict: c.addressDistrict,
  password: "",
});

/**
 * Settings → Empresas (secondary §2, §4; super users): every company, its rows tinted by due date in
 * its own calendar; +Vencimiento moves the form's due date by the recurrence; swap enters a company.
 */
export function CompaniesTab() {
  const { t } = useTranslation("settings");
  const user = useSessionUser();
  const list = companyCollection.useList("");
  const save = companyCollection.useSave();
  const remove = companyCollection.useDelete();
  const plans = usePlanOptions();
  const [swapping, setSwapping] = useState<number | null>(null);

  const swap = async (company: CompanyView) => {
    setSwapping(company.id);
    try {
      await enterCompany(await swapCompany(user.id, company.id));
    } catch (error) {
      toastError(error, t("companies.swapFailed"));
      setSwapping(null);
    }
  };

  return (
    <FormTableTab<CompanyView, CompanyValues>
      testId="company"
      tableTestId="companies"
      schema={(editing) => (editing ? updateSchema : createSchema)}
      blank={blankCompany}
      valuesOf={valuesOf}
      focusField="name"
      texts={{
        formTitle: t("companies.formTitle"),
        editTitle: t("companies.editTitle"),
        save: t("companies.save"),
        update: t("companies.update"),
        clear: t("companies.clear"),
        cancel: t("companies.cancel"),
        saved: t("companies.saved"),
        saveFailed: t("companies.saveFailed"),
        empty: t("companies.empty"),
        actions: t("companies.columns.actions"),
      }}
      // secondary §8: a duplicate name is told in the form's own words
      refusedCodes={["ERR_COMPANY_NAME_EXISTS"]}
      list={list}
      maxTableHeight={560}
      save={(values, editing) => save.mutateAsync({ id: editing?.id ?? null, values })}
      afterSave={(saved) => {
        // secondary §4: saving the company one is in keeps its colours locally and reloads
        if (saved.id !== user.companyId) return;
        saveCompanyLook({ primaryColor: saved.primaryColor, headerColor: saved.headerColor, pageTitle: saved.pageTitle });
        window.location.reload();
      }}
      remove={{
        // the super user's own company (and the main one: the API says so) is never deleted
        allowed: (company) => company.id !== user.companyId,
        title: (company) => t("companies.deleteTitle", { name: company.name }),
        message: t("companies.deleteMessage"),
        run: (company) => remove.mutateAsync(company.id),
        done: t("companies.deleted"),
      }}
      rowSx={(company) => toneSx(toneOf(company))}
      rowData={(company) => ({ "data-tone": toneOf(company) ?? "none", "data-company-id": company.id })}
      rowExtra={(company) =>
        company.id === user.companyId ? (
          <Chip size="small" label={t("companies.current")} sx={{ mr: 1 }} data-testid="company-current" />
        ) : (
          <Tooltip title={t("companies.swap")}>
            <span>
              <IconButton
                size="small"
                aria-label={t("companies.swap")}
                disabled={swapping !== null}
                onClick={() => void swap(company)}
                data-testid="company-swap"
              >
                <LoginIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        )
      }
      formActions={(form, editing) => (
        <Button
          startIcon={<EventRepeatIcon />}
          onClick={() => {
            const from = form.getValues("dueDate") || todayIn(editing?.timeZone ?? companyZone());
            form.setValue("dueDate", addRecurrence(from, form.getValues("recurrence")), { shouldDirty: true });
          }}
          data-testid="company-add-due"
          sx={{ mr: "auto" }}
        >
          {t("companies.addDueDate")}
        </Button>
      )}
      columns={[
        {
          label: t("companies.columns.name"),
          cell: (c) => (
            <>
              {c.name}
              <Typography variant="caption" sx={{ ...narrowOnly, color: "text.secondary" }}>
                {[c.plan?.name, formatDate(c.dueDate)].filter(Boolean).join(" · ")}
              </Typography>
            </>
          ),
        },
        { label: t("companies.columns.email"), wide: true, cell: (c) => c.email },
        { label: t("companies.columns.plan"), wide: true, cell: (c) => c.plan?.name ?? "" },
        {
          label: t("companies.columns.status"),
          wide: true,
          cell: (c) => (
            <Chip
              size="small"
              variant="outlined"
              color={c.status ? "success" : "default"}
              label={t(c.status ? "companies.fields.active" : "companies.fields.inactive")}
            />
          ),
        },
        {
          label: t("companies.columns.campaigns"),
          wide: true,
          cell: (c) => t(c.campaignsEnabled ? "companies.enabled" : "companies.disabled"),
        },
        {
          label: t("companies.columns.dueDate"),
          wide: true,
          cell: (c) => {
            const tone = toneOf(c);
            return (
              <span title={tone ? t(`companies.tone.${tone}`) : undefined} style={{ whiteSpace: "nowrap" }}>
                {formatDate(c.dueDate)}
              </span>
            );
          },
        },
        { label: t("companies.columns.recurrence"), wide: true, cell: (c) => t(`companies.recurrences.${c.recurrence}`) },
      ]}
      fields={(form, editing) => <CompanyFields form={form} creating={editing === null} plans={plans.data ?? []} />}
    />
  );
}
