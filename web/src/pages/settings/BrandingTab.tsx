import { zodResolver } from "@hookform/resolvers/zod";
import { CompanyBrandingForm, LOGO_MAX_BYTES } from "@charla/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import UploadIcon from "@mui/icons-material/UploadFileOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useRef, useState } from "react";
import { type Resolver, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/client";
import { setCompanyLogo, useSaveBranding } from "../../api/companies";
import { applyIssues } from "../../components/list-kit/FormDialog";
import { toastError } from "../../api/errors";
import { useProtectedImage } from "../../api/media";
import charlaLogo from "../../assets/charla-logo.svg";
import { useSessionUser } from "../../auth/context";
import { ColorField } from "../../components/form/ColorField";
import { FormTextField } from "../../components/form/FormTextField";
import { useObjectUrl } from "../../hooks/use-object-url";
import { saveCompanyLook } from "../../theme/preferences";
import { storeLogo, storeLogoOf } from "./company-look";
import { isPngFile } from "./png-file";

type Values = { primaryColor: string; headerColor: string; pageTitle: string };
const maxKb = Math.round(LOGO_MAX_BYTES / 1024);

/**
 * Settings → Marca (core §4 saving settings, §5 logo PNG): a company admin's logo, colours and page
 * title. Saved, they are kept in this browser too (the login page shows them) and the page reloads.
 */
export function BrandingTab() {
  const { t } = useTranslation("settings");
  const user = useSessionUser();
  const { company } = user;
  const saveBranding = useSaveBranding();
  const form = useForm<Values>({
    resolver: zodResolver(CompanyBrandingForm as never) as unknown as Resolver<Values>,
    defaultValues: { primaryColor: company.primaryColor, headerColor: company.headerColor, pageTitle: company.pageTitle },
  });
  const [file, setFile] = useState<File | null>(null);
  const [removed, setRemoved] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const stored = useProtectedImage(company.logo && !removed ? `/companies/${company.id}/logo` : null);
  const chosen = useObjectUrl(file);
  const logoUrl = chosen ?? (removed ? null : stored.url);
  const headerColor = useWatch({ control: form.control, name: "headerColor" });

  const choose = async (picked: File | undefined) => {
    if (!picked) return;
    // the API judges the bytes too; checked here first so a wrong file is said before anything is sent
    if (!(await isPngFile(picked))) return setFileError(t("branding.notPng"));
    if (picked.size > LOGO_MAX_BYTES) return setFileError(t("branding.tooLarge", { size: maxKb }));
    setFileError(null);
    setFile(picked);
    setRemoved(false);
  };

  const submit = form.handleSubmit(async (values) => {
    try {
      await saveBranding.mutateAsync({ companyId: company.id, form: values });
      if (file) await setCompanyLogo(company.id, file);
      else if (removed && company.logo) await setCompanyLogo(company.id, null);
      // core §4: the look is kept locally, the logo with it for the login page, and the page reloads
      saveCompanyLook(values);
      if (file) await storeLogo(file);
      else await storeLogoOf(company.id, company.logo && !removed);
      window.location.reload();
    } catch (error) {
      applyIssues(error, form, values);
      const refused = !(error instanceof ApiError) || error.code === "ERR_VALIDATION";
      toastError(refused ? undefined : error, t("branding.saveFailed"));
    }
  });

  return (
    <Box
      component="form"
      noValidate
      onSubmit={submit}
      data-testid="branding-form"
      sx={{ display: "flex", flexDirection: "column", gap: 3, maxWidth: 880 }}
    >
      <Box>
        <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
          {t("branding.title")}
        </Typography>
        <Typography variant="body2" sx={{ color: "text.secondary" }}>
          {t("branding.intro")}
        </Typography>
      </Box>
      <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
        <Typography variant="overline" sx={{ color: "text.secondary", lineHeight: 1.5 }}>
          {t("branding.logo")}
        </Typography>
        <Box sx={{ display: "flex", gap: 2, alignItems: "center", flexWrap: "wrap" }}>
          <Box
            sx={{
              width: 200,
              height: 72,
              border: 1,
              borderColor: "divider",
              borderRadius: 1,
              display: "grid",
              placeItems: "center",
              bgcolor: headerColor,
              p: 1,
            }}
          >
            <Box
              component="img"
              src={logoUrl ?? charlaLogo}
              alt={t("branding.preview")}
              data-testid="branding-logo-preview"
              data-custom={logoUrl !== null}
              sx={{ maxHeight: "100%", maxWidth: "100%", objectFit: "contain" }}
            />
          </Box>
          <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
            <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
              <Button variant="outlined" startIcon={<UploadIcon />} onClick={() => picker.current?.click()}>
                {t("branding.choose")}
              </Button>
              {logoUrl && (
                <Button
                  color="inherit"
                  startIcon={<DeleteIcon />}
                  onClick={() => {
                    setFile(null);
                    setRemoved(true);
                  }}
                  data-testid="branding-logo-remove"
                >
                  {t("branding.remove")}
                </Button>
              )}
            </Box>
            <Typography variant="caption" sx={{ color: "text.secondary" }}>
              {logoUrl ? t("branding.logoHelp", { size: maxKb }) : t("branding.noLogo")}
            </Typography>
          </Box>
          <input
            ref={picker}
            type="file"
            accept="image/png"
            hidden
            data-testid="branding-logo-input"
            onChange={(event) => {
              void choose(event.target.files?.[0]);
              event.target.value = "";
            }}
          />
        </Box>
        {fileError && (
          <Alert severity="error" data-testid="branding-logo-error">
            {fileError}
          </Alert>
        )}
      </Box>
      <Box sx={{ display: "grid", gap: 3, gridTemplateColumns: { xs: "1fr", md: "1fr 1fr" } }}>
        <ColorField
          control={form.control}
          name="primaryColor"
          label={t("branding.primaryColor")}
          testId="branding-primary-color"
        />
        <ColorField control={form.control} name="headerColor" label={t("branding.headerColor")} testId="branding-header-color" />
      </Box>
      <FormTextField
        control={form.control}
        name="pageTitle"
        label={t("branding.pageTitle")}
        helperText={t("branding.pageTitleHelp")}
        testId="branding-page-title"
        sx={{ maxWidth: 420 }}
      />
      <Box sx={{ display: "flex", justifyContent: "flex-end" }}>
        <Button type="submit" variant="contained" disabled={form.formState.isSubmitting} data-testid="branding-save">
          {t("branding.save")}
        </Button>
      </Box>
    </Box>
  );
}
