import type { LoginForm } from "@charla/contracts";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Resolver, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { toastError } from "../../api/errors";
import { useSignupInfo } from "../../api/signup";
import charlaLogo from "../../assets/charla-logo.svg";
import { useAuth } from "../../auth/context";
import { LanguageSwitcher } from "../../components/LanguageSwitcher";
import { FormTextField } from "../../components/form/FormTextField";
import { loader } from "../../lib/loader";
import { readItem, StorageKeys } from "../../lib/storage";

/*
 * The form's validation (the shared contract schema, and zod with it) is not needed to show the page:
 * it is fetched when the user first types or clicks, and a submit before it is in waits for it.
 */
const loadValidation = loader(() => import("./login-resolver").then((module) => module.loginResolver));
const preloadValidation = () => void loadValidation().catch(() => undefined);
const resolver: Resolver<LoginForm> = async (values, context, options) => (await loadValidation())(values, context, options);

/** The company's logo kept by its last visit (Settings → Marca, or a swap): only a PNG data URL is shown. */
const storedLogo = () => {
  const logo = readItem(StorageKeys.companyLogo);
  return logo?.startsWith("data:image/png;base64,") ? logo : null;
};

export default function LoginPage() {
  const { t } = useTranslation("login");
  const { login } = useAuth();
  // core §2 signup: offered only while the operator lets new companies sign up
  const signupOpen = useSignupInfo().data?.enabled === true;
  const { control, handleSubmit, formState } = useForm<LoginForm>({
    resolver,
    defaultValues: { email: "", password: "" },
  });

  const submit = handleSubmit(async (values) => {
    try {
      await login(values);
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Box
      sx={{
        minHeight: "100dvh",
        display: "flex",
        flexDirection: "column",
        bgcolor: "background.default",
        px: 2,
      }}
    >
      <Box sx={{ display: "flex", justifyContent: "flex-end", py: 1 }}>
        <LanguageSwitcher />
      </Box>
      <Box sx={{ flex: 1, display: "grid", placeItems: "center", pb: 6 }}>
        <Paper variant="outlined" sx={{ width: "100%", maxWidth: 400, p: { xs: 3, sm: 4 } }}>
          <Stack
            component="form"
            noValidate
            onSubmit={submit}
            onKeyDown={preloadValidation}
            onPointerDown={preloadValidation}
            sx={{ gap: 2.5 }}
          >
            <Box
              component="img"
              src={storedLogo() ?? charlaLogo}
              alt={t("logoAlt")}
              data-testid="login-logo"
              sx={{ height: 56, maxWidth: "100%", objectFit: "contain", alignSelf: "center", mb: 1 }}
            />
            <Typography variant="h6" component="h1" sx={{ textAlign: "center" }}>
              {t("title")}
            </Typography>
            <FormTextField
              control={control}
              name="email"
              label={t("email")}
              type="email"
              autoComplete="email"
              autoFocus
              fullWidth
              testId="login-email"
            />
            <FormTextField
              control={control}
              name="password"
              password
              label={t("password")}
              autoComplete="current-password"
              fullWidth
              testId="login-password"
            />
            <Button
              type="submit"
              variant="contained"
              size="large"
              disabled={formState.isSubmitting}
              data-testid="login-submit"
              startIcon={formState.isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
            >
              {t("submit")}
            </Button>
            {signupOpen && (
              <Link
                component={RouterLink}
                to="/signup"
                variant="body2"
                sx={{ alignSelf: "center" }}
                data-testid="login-signup-link"
              >
                {t("signupLink")}
              </Link>
            )}
          </Stack>
        </Paper>
      </Box>
    </Box>
  );
}
