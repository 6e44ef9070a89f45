const mxn = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "MXN" });

/**
 * secondary §9: prices are MXN shown with Brazilian Portuguese number formatting, whatever the
 * interface's language. The API sends exact decimals as text ("199.90"); Intl formats the string
 * itself, so no amount passes through a floating-point number on its way to the screen.
 */
export function formatMoney(value: string | null | undefined): string {
  const text = (value ?? "").trim().replace(",", ".");
  if (!/^-?\d+(\.\d+)?$/.test(text)) return value ?? "";
  return mxn.format(text as `${number}`);
}
