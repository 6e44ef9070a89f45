import { SubscriptionForm } from "@charla/contracts";
import { zodResolver } from "@hookform/resolvers/zod";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Step from "@mui/material/Step";
import StepLabel from "@mui/material/StepLabel";
import Stepper from "@mui/material/Stepper";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useTheme } from "@mui/material/styles";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { toastError } from "../../api/errors";
import { type InstantPaymentView, type InvoiceView, useBillingCompany, useSubscribe } from "../../api/invoices";
import { applyIssues } from "../../components/list-kit/FormDialog";
import { toast } from "../../lib/toast";
import { BillingStep } from "./BillingStep";
import { type CheckoutOutput, type CheckoutValues, billingFields, checkoutDefaults } from "./checkout-form";
import { PaymentView } from "./PaymentView";
import { PlanStep } from "./PlanStep";
import { ReviewStep } from "./ReviewStep";

const steps = ["billing", "plan", "review"] as const;
const BILLING = 0;
/** secondary §4: the checkout opens on the plan; the billing data is reached through Back. */
const FIRST_STEP = 1;
const REVIEW = 2;

/**
 * The checkout of one invoice (secondary §4, §5): Dados → Personalizar → Revisar, then the
 * instant-payment QR. The payment's confirmation arrives on the company's channel (PaymentWatcher).
 */
export function CheckoutDialog({ invoice, onClose }: { invoice: InvoiceView; onClose: () => void }) {
  const { t } = useTranslation("financeiro");
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  const company = useBillingCompany(invoice.companyId);
  const subscribe = useSubscribe();
  const [step, setStep] = useState(FIRST_STEP);
  const [payment, setPayment] = useState<InstantPaymentView | null>(null);
  const form = useForm<CheckoutValues, unknown, CheckoutOutput>({
    resolver: zodResolver(SubscriptionForm),
    defaultValues: checkoutDefaults(invoice, undefined),
  });

  // the company's last billing address fills the form once it arrives, unless typing has begun
  const filled = useRef(false);
  useEffect(() => {
    if (!company.data || filled.current) return;
    filled.current = true;
    if (!form.formState.isDirty) form.reset(checkoutDefaults(invoice, company.data));
  }, [company.data, form, invoice]);

  const next = async () => {
    if (step === BILLING && !(await form.trigger([...billingFields]))) return;
    setStep((current) => Math.min(current + 1, REVIEW));
  };

  const pay = form.handleSubmit(
    async (values) => {
      try {
        const answer = await subscribe.mutateAsync(values);
        setPayment(answer);
        void toast.success(t("checkout.pending"));
      } catch (error) {
        if (applyIssues(error, form, checkoutDefaults(invoice, undefined))) setStep(BILLING);
        toastError(error);
      }
    },
    // a required billing field left empty: back to the step that has it, its message beside it
    () => setStep(BILLING),
  );

  const busy = form.formState.isSubmitting;
  return (
    <Dialog
      open
      onClose={busy ? undefined : onClose}
      fullWidth
      maxWidth="sm"
      fullScreen={narrow}
      slotProps={{
        paper: { component: "form", noValidate: true, onSubmit: pay, "data-testid": "checkout-dialog" } as object,
      }}
    >
      <DialogTitle>{t("checkout.title")}</DialogTitle>
      <DialogContent dividers sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
        {payment ? (
          <PaymentView payment={payment} />
        ) : (
          <>
            <Stepper activeStep={step} alternativeLabel data-testid="checkout-stepper" data-step={steps[step]}>
              {steps.map((name) => (
                <Step key={name}>
                  <StepLabel>{t(`checkout.steps.${name}`)}</StepLabel>
                </Step>
              ))}
            </Stepper>
            {step === BILLING && <BillingStep control={form.control} />}
            {step === 1 && <PlanStep invoice={invoice} company={company.data} />}
            {step === REVIEW && <ReviewStep invoice={invoice} control={form.control} onEdit={() => setStep(BILLING)} />}
          </>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, py: 1.5 }}>
        {payment ? (
          <Button onClick={onClose} data-testid="checkout-close">
            {t("checkout.close")}
          </Button>
        ) : (
          <>
            <Button onClick={onClose} color="inherit" disabled={busy} data-testid="checkout-cancel" sx={{ mr: "auto" }}>
              {t("common:actions.cancel")}
            </Button>
            <Button
              onClick={() => setStep((current) => current - 1)}
              disabled={step === BILLING || busy}
              data-testid="checkout-back"
            >
              {t("checkout.back")}
            </Button>
            {/* keyed apart: reusing Next's element as PAGAR would let the click that reached the review submit */}
            {step === REVIEW ? (
              <Button
                key="pay"
                type="submit"
                variant="contained"
                disabled={busy}
                data-testid="checkout-pay"
                startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
              >
                {t("checkout.pay")}
              </Button>
            ) : (
              <Button key="next" variant="contained" onClick={() => void next()} data-testid="checkout-next">
                {t("checkout.next")}
              </Button>
            )}
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
