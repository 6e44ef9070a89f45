import { useEffect, useRef } from "react";
import type { UseFormReturn } from "react-hook-form";
import type { CustomerMessageOutput, CustomerMessageValues } from "./simulator-form";
import { readLastCustomer, rememberLastCustomer } from "./simulator-storage";

/**
 * Issue 26: the customer last played on a connection comes back with the page (and with the
 * connection, when the admin switches); a number typed meanwhile is kept when there is none.
 */
export function useLastCustomer(
  whatsappId: number | null,
  digits: string,
  name: string,
  form: UseFormReturn<CustomerMessageValues, unknown, CustomerMessageOutput>,
): void {
  const restoredFor = useRef<number | null>(null);
  useEffect(() => {
    if (whatsappId === null || restoredFor.current === whatsappId) return;
    restoredFor.current = whatsappId;
    const last = readLastCustomer(whatsappId);
    if (!last) return;
    form.setValue("number", last.number);
    form.setValue("name", last.name);
  }, [whatsappId, form]);
  useEffect(() => {
    if (whatsappId === null || !digits || restoredFor.current !== whatsappId) return;
    rememberLastCustomer(whatsappId, { number: form.getValues("number").trim(), name: name.trim() });
  }, [whatsappId, digits, name, form]);
}
