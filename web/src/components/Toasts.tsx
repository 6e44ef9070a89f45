import { Limits } from "@charla/contracts";
import { useTranslation } from "react-i18next";
import { type CloseButtonProps, ToastContainer } from "react-toastify";
import { useThemePreferences } from "../theme/preferences";

/** react-toastify's close button (same look), with our label instead of its English "close". */
function ToastCloseButton({ closeToast, theme, label }: CloseButtonProps & { label: string }) {
  return (
    <button
      type="button"
      className={`Toastify__close-button Toastify__close-button--${theme}`}
      aria-label={label}
      onClick={(event) => {
        event.stopPropagation();
        closeToast(true);
      }}
    >
      <svg aria-hidden="true" viewBox="0 0 14 16">
        <path
          fillRule="evenodd"
          d="M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z"
        />
      </svg>
    </button>
  );
}

/** react-toastify's own labels ("Notifications Alt+T", "close") are English: ours replace them. */
export default function Toasts() {
  const { mode } = useThemePreferences();
  const { t } = useTranslation();
  const closeLabel = t("toasts.close");
  return (
    <ToastContainer
      position="top-right"
      autoClose={Limits.toastMs}
      theme={mode}
      newestOnTop
      aria-label={t("toasts.region")}
      closeButton={(props) => <ToastCloseButton {...props} label={closeLabel} />}
    />
  );
}
