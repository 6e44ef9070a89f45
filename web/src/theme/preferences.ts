import { DefaultColors } from "@charla/contracts";
import { useSyncExternalStore } from "react";
import { readItem, StorageKeys, writeItem } from "../lib/storage";

export type ThemeMode = "light" | "dark";

export type ThemePreferences = {
  mode: ThemeMode;
  primaryColor: string;
  headerColor: string;
  /** null: the product name is used. */
  pageTitle: string | null;
};

// createTheme throws on colours it cannot parse, and these come from storage anyone can edit.
const hexColor = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

function colorOr(value: string | null | undefined, fallback: string): string {
  return value && hexColor.test(value.trim()) ? value.trim() : fallback;
}

function systemMode(): ThemeMode {
  return window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function readPreferences(): ThemePreferences {
  const stored = readItem(StorageKeys.preferredTheme);
  return {
    mode: stored === "dark" || stored === "light" ? stored : systemMode(),
    primaryColor: colorOr(readItem(StorageKeys.primaryColor), DefaultColors.primary),
    headerColor: colorOr(readItem(StorageKeys.headerColor), DefaultColors.header),
    pageTitle: readItem(StorageKeys.pageTitle)?.trim() || null,
  };
}

let snapshot = readPreferences();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemePreferences(): ThemePreferences {
  return useSyncExternalStore(subscribe, () => snapshot);
}

/**
 * After login the company's look is kept locally (core §1) and applied at once. A blank value is
 * removed rather than kept from a previous company, so the default applies.
 */
export function saveCompanyLook(look: { primaryColor?: string; headerColor?: string; pageTitle?: string }): void {
  writeItem(StorageKeys.primaryColor, look.primaryColor?.trim() || null);
  writeItem(StorageKeys.headerColor, look.headerColor?.trim() || null);
  writeItem(StorageKeys.pageTitle, look.pageTitle?.trim() || null);
  const next = readPreferences();
  // every session refresh saves the look again, nearly always unchanged: a store change re-renders
  // the whole app at once (useSyncExternalStore), so only a real change is announced
  if (
    next.mode === snapshot.mode &&
    next.primaryColor === snapshot.primaryColor &&
    next.headerColor === snapshot.headerColor &&
    next.pageTitle === snapshot.pageTitle
  )
    return;
  snapshot = next;
  for (const listener of listeners) listener();
}

/** core §1: the light/dark toggle saves the choice and reloads the page. */
export function toggleThemeMode(): void {
  writeItem(StorageKeys.preferredTheme, snapshot.mode === "dark" ? "light" : "dark");
  window.location.reload();
}
