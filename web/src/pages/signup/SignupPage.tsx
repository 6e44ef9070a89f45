import type { PlanView } from "@charla/contracts";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { type UseFormReturn, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { errorText, toastError } from "../../api/errors";
import { ApiError } from "../../api/client";
import { refreshSignupInfo, signup, usePublicPlans, useSignupInfo } from "../../api/signup";
import charlaLogo from "../../assets/charla-logo.svg";
import { useAuth } from "../../auth/context";
import { SectionLoader } from "../../components/FullPageLoader";
import { LanguageSwitcher } from "../../components/LanguageSwitcher";
import { FormTextField } from "../../components/form/FormTextField";
import { applyIssues } from "../../components/list-kit/FormDialog";
import { PlanSelect } from "./PlanSelect";
import { type SignupOutput, type SignupValues, signupDefaults, signupResolver } from "./signup-form";

/** A refusal that is about one field goes beside it as well as in the toast. */
const fieldOfCode: Record<string, keyof SignupValues> = {
  ERR_COMPANY_NAME_EXISTS: "companyName",
  ERR_EMAIL_ALREADY_EXISTS: "email",
};

function SignupFields({ form, plans }: { form: UseFormReturn<SignupValues, unknown, SignupOutput>; plans: PlanView[] }) {
  const { t } = useTranslation("signup");
  const { control } = form;
  return (
    <>
      <FormTextField
        control={control}
        name="companyName"
        label={t("companyName")}
        autoComplete="organization"
        autoFocus
        required
        fullWidth
        testId="signup-company"
      />
      <PlanSelect control={control} plans={plans} />
      <FormTextField
        control={control}
        name="name"
        label={t("name")}
        autoComplete="name"
        required
        fullWidth
        testId="signup-name"
      />
      <FormTextField
        control={control}
        name="email"
        label={t("email")}
        type="email"
        autoComplete="email"
        required
        fullWidth
        testId="signup-email"
      />
      <FormTextField
        control={control}
        name="phone"
        label={t("phone")}
        type="tel"
        autoComplete="tel"
        fullWidth
        testId="signup-phone"
      />
      <FormTextField
        control={control}
        name="password"
        password
        label={t("password")}
        autoComplete="new-password"
        required
        fullWidth
        testId="signup-password"
      />
    </>
  );
}

function SignupForm({ plans, trialDays }: { plans: PlanView[]; trialDays: number }) {
  const { t } = useTranslation("signup");
  const { startSession } = useAuth();
  const queryClient = useQueryClient();
  const form = useForm<SignupValues, unknown, SignupOutput>({ resolver: signupResolver, defaultValues: signupDefaults });
  const { setValue, getValues } = form;

  // the first plan is chosen for the visitor, who may pick another
  useEffect(() => {
    if (plans.length > 0 && !getValues("planId")) setValue("planId", plans[0].id);
  }, [plans, getValues, setValue]);

  const submit = form.handleSubmit(async (values) => {
    try {
      startSession(await signup(values));
    } catch (error) {
      const field = error instanceof ApiError && error.code ? fieldOfCode[error.code] : undefined;
      if (field) form.setError(field, { type: "server", message: errorText(error) });
      else applyIssues(error, form, signupDefaults);
      // closed (or a plan gone) while the form was open: the page shows what holds now
      if (error instanceof ApiError && (error.code === "ERR_USER_CREATION_DISABLED" || error.code === "ERR_NO_PLAN_FOUND"))
        void refreshSignupInfo(queryClient);
      toastError(error);
    }
  });

  const busy = form.formState.isSubmitting;
  return (
    <Stack component="form" noValidate onSubmit={submit} sx={{ gap: 2.5 }} data-testid="signup-form">
      {trialDays > 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ textAlign: "center", mt: -1.5 }} data-testid="signup-trial">
          {t("trial", { count: trialDays })}
        </Typography>
      )}
      <SignupFields form={form} plans={plans} />
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={busy}
        data-testid="signup-submit"
        startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {t("submit")}
      </Button>
    </Stack>
  );
}

/** What the card holds: the form, or why there is none (closed by the operator, or not loaded). */
function SignupBody() {
  const { t } = useTranslation("signup");
  const info = useSignupInfo();
  const plans = usePublicPlans(info.data?.enabled === true);
  if (info.isLoading || (info.data?.enabled && plans.isLoading)) return <SectionLoader />;
  if (info.isError || plans.isError)
    return (
      <Alert severity="error" data-testid="signup-load-failed">
        {t("loadFailed")}
      </Alert>
    );
  if (!info.data?.enabled)
    return (
      <Alert severity="info" data-testid="signup-closed">
        <Typography variant="body2" sx={{ fontWeight: 500 }}>
          {t("closed")}
        </Typography>
        <Typography variant="body2">{t("closedHint")}</Typography>
      </Alert>
    );
  return <SignupForm plans={plans.data ?? []} trialDays={info.data.trialDays} />;
}

function Card({ children }: { children: ReactNode }) {
  const { t } = useTranslation(["signup", "login"]);
  return (
    <Paper variant="outlined" sx={{ width: "100%", maxWidth: 460, p: { xs: 3, sm: 4 } }}>
      <Stack sx={{ gap: 2.5 }}>
        <Box component="img" src={charlaLogo} alt={t("login:logoAlt")} sx={{ height: 56, alignSelf: "center", mb: 1 }} />
        <Typography variant="h6" component="h1" sx={{ textAlign: "center" }}>
          {t("title")}
        </Typography>
        {children}
        <Typography variant="body2" sx={{ textAlign: "center" }}>
          {t("haveAccount")}{" "}
          <Link component={RouterLink} to="/login" data-testid="signup-login-link">
            {t("login")}
          </Link>
        </Typography>
      </Stack>
    </Paper>
  );
}

/**
 * core §2 signup, beside /login: a new company with its first admin, signed in at once (the same
 * session handling as a login). Closed, it says so and offers no form.
 */
export default function SignupPage() {
  return (
    <Box sx={{ minHeight: "100dvh", display: "flex", flexDirection: "column", bgcolor: "background.default", px: 2 }}>
      <Box sx={{ display: "flex", justifyContent: "flex-end", py: 1 }}>
        <LanguageSwitcher />
      </Box>
      <Box sx={{ flex: 1, display: "grid", placeItems: "center", pb: 6 }}>
        <Card>
          <SignupBody />
        </Card>
      </Box>
    </Box>
  );
}
