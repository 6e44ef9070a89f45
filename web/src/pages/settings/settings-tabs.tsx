import type { ReactNode } from "react";
import type { Access } from "../../auth/permissions";
import { HelpsTab } from "../helps/HelpsTab";
import { BrandingTab } from "./BrandingTab";
import { CompaniesTab } from "./CompaniesTab";
import { OptionsTab } from "./OptionsTab";
import { PlansTab } from "./PlansTab";
import { SchedulesTab } from "./SchedulesTab";

export type SettingsTab = {
  key: string;
  /** Key in the `settings` namespace. */
  labelKey: string;
  access?: Access;
  /** Extra condition on the company's settings (Horarios needs scheduleType = company). */
  when?: (values: Partial<Record<string, string>>) => boolean;
  element: ReactNode;
};

/**
 * core §2 Settings: Opciones, Horarios (scheduleType = company); the super tabs Empresas, Planes,
 * Ayuda are added here by their issues.
 */
export const settingsTabs: SettingsTab[] = [
  { key: "options", labelKey: "tabs.options", access: { anyOf: ["settings.write"] }, element: <OptionsTab /> },
  {
    key: "schedules",
    labelKey: "tabs.schedules",
    access: { anyOf: ["settings.write"] },
    when: (values) => values.scheduleType === "company",
    element: <SchedulesTab />,
  },
  {
    key: "branding",
    labelKey: "tabs.branding",
    access: { anyOf: ["settings.write", "companies.manage"] },
    element: <BrandingTab />,
  },
  { key: "companies", labelKey: "tabs.companies", access: { anyOf: ["companies.manage"] }, element: <CompaniesTab /> },
  { key: "plans", labelKey: "tabs.plans", access: { anyOf: ["plans.manage"] }, element: <PlansTab /> },
  // secondary §2: help videos, platform data managed by super users
  { key: "helps", labelKey: "tabs.helps", access: { anyOf: ["helps.manage"] }, element: <HelpsTab /> },
];
