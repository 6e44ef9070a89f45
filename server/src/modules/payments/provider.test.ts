import { describe, expect, it } from "vitest";
import { loadConfig } from "../../config.js";
import { paymentProvider } from "./provider.js";

describe("payment configuration", () => {
  it("reads the billing variables, trimmed, with their defaults", () => {
    const none = loadConfig({ DATA_DIR: "/tmp/charla-provider-test", JWT_SECRET: "a", JWT_REFRESH_SECRET: "b" });
    expect(none).toMatchObject({
      invoiceDaysBefore: 10,
      pixKey: "",
      pixMerchantName: "",
      pixMerchantCity: "",
      paymentWebhookSecret: "",
    });
    const set = loadConfig({
      DATA_DIR: "/tmp/charla-provider-test",
      JWT_SECRET: "a",
      JWT_REFRESH_SECRET: "b",
      INVOICE_DAYS_BEFORE: "15",
      PIX_KEY: " pagos@charla.example ",
      PIX_MERCHANT_NAME: "Charla",
      PIX_MERCHANT_CITY: "Recife",
      PAYMENT_WEBHOOK_SECRET: " whsec_abc= ",
    });
    expect(set).toMatchObject({
      invoiceDaysBefore: 15,
      pixKey: "pagos@charla.example",
      pixMerchantName: "Charla",
      pixMerchantCity: "Recife",
      paymentWebhookSecret: "whsec_abc=",
    });
    expect(
      loadConfig({ DATA_DIR: "/tmp/charla-provider-test", JWT_SECRET: "a", JWT_REFRESH_SECRET: "b", INVOICE_DAYS_BEFORE: "-3" })
        .invoiceDaysBefore,
    ).toBe(0);
  });

  it("has a provider only when the key, the name and the city are all set", () => {
    const base = loadConfig({ DATA_DIR: "/tmp/charla-provider-test", JWT_SECRET: "a", JWT_REFRESH_SECRET: "b" });
    const full = { ...base, pixKey: "k@x.co", pixMerchantName: "Charla", pixMerchantCity: "Recife" };
    expect(paymentProvider(full)?.name).toBe("pix");
    expect(paymentProvider({ ...full, pixKey: "" })).toBeNull();
    expect(paymentProvider({ ...full, pixMerchantName: "" })).toBeNull();
    expect(paymentProvider({ ...full, pixMerchantCity: "" })).toBeNull();
  });
});
