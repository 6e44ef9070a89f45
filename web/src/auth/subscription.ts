import { Limits } from "@charla/contracts";
import { toast } from "../lib/toast";
import i18n from "../i18n";
import { daysFromToday } from "../lib/company-time";

/** Days left when the warning applies (core §5: fewer than 5 remain), else null. */
export function subscriptionDaysLeft(dueDate: string | null | undefined): number | null {
  const days = daysFromToday(dueDate);
  return days !== null && days >= 0 && days < Limits.subscriptionWarningDays ? days : null;
}

export function subscriptionWarningText(days: number): string {
  return i18n.t("subscription.expiresIn", { ns: "common", count: days });
}

export function warnSubscription(dueDate: string | null | undefined): void {
  const days = subscriptionDaysLeft(dueDate);
  if (days === null) return;
  const text = subscriptionWarningText(days);
  toast.warn(text, { toastId: text, autoClose: 6000 });
}
