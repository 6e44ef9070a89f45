import type { AuthResponse } from "@charla/contracts";
import { readCompanyLogo } from "../../api/companies";
import { StorageKeys, writeItem } from "../../lib/storage";
import { saveCompanyLook } from "../../theme/preferences";

/** The only logo the login page shows: a PNG kept as a data URL (never another kind of URL). */
export const PNG_DATA_URL = "data:image/png;base64,";

export function toDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** Keeps the logo for the login page (null: forgets it); a browser that cannot store it just shows Charla's. */
export async function storeLogo(file: Blob | null): Promise<void> {
  if (!file) {
    writeItem(StorageKeys.companyLogo, null);
    return;
  }
  const url = await toDataUrl(new Blob([file], { type: "image/png" }));
  writeItem(StorageKeys.companyLogo, url.startsWith(PNG_DATA_URL) ? url : null);
}

/** The company's logo read from the API into storage, when it has one; a failed read forgets the old one. */
export async function storeLogoOf(companyId: number, hasLogo: boolean): Promise<void> {
  const logo = hasLogo ? await readCompanyLogo(companyId).catch(() => null) : null;
  await storeLogo(logo);
}

/**
 * core §4 company swap, once the session names the new company: its id, colours, title and logo are
 * kept locally, chatBotType = keyword sets the isKeyword flag, and the page reloads into it.
 */
export async function enterCompany(auth: AuthResponse): Promise<void> {
  const { company } = auth.user;
  writeItem(StorageKeys.companyId, String(auth.user.companyId));
  saveCompanyLook({ primaryColor: company.primaryColor, headerColor: company.headerColor, pageTitle: company.pageTitle });
  const chatBotType = company.settings.find((setting) => setting.key === "chatBotType")?.value;
  writeItem(StorageKeys.isKeyword, chatBotType === "keyword" ? "true" : null);
  await storeLogoOf(auth.user.companyId, company.logo);
  window.location.reload();
}
