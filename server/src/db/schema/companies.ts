import { DEFAULT_SCHEDULES, DEFAULT_TIME_ZONE, type ScheduleEntry } from "@charla/contracts";
import { bigint, boolean, date, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps } from "./timestamps.js";
import { plans } from "./plans.js";

export const companies = pgTable(
  "companies",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().default(""),
    phone: text("phone").notNull().default(""),
    planId: integer("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "restrict" }),
    status: boolean("status").notNull().default(true),
    dueDate: date("due_date", { mode: "string" }),
    recurrence: text("recurrence").notNull().default("MENSAL"),
    primaryColor: text("primary_color").notNull().default("#FAAF3B"),
    headerColor: text("header_color").notNull().default("#ffffff"),
    pageTitle: text("page_title").notNull().default(""),
    phoneNotification: text("phone_notification").notNull().default(""),
    logoPath: text("logo_path"),
    /** Billing identity and address (secondary §3), printed on invoices and asked for at checkout. */
    billingName: text("billing_name").notNull().default(""),
    addressZipCode: text("address_zip_code").notNull().default(""),
    addressStreet: text("address_street").notNull().default(""),
    addressState: text("address_state").notNull().default(""),
    addressCity: text("address_city").notNull().default(""),
    addressDistrict: text("address_district").notNull().default(""),
    /** Bytes of the company's stored files (uploads and media), counted against its storage quota. */
    storageBytes: bigint("storage_bytes", { mode: "number" }).notNull().default(0),
    /** Working hours when the setting scheduleType is "company" (core §2 Settings, Horarios). */
    schedules: jsonb("schedules").$type<ScheduleEntry[]>().notNull().default(DEFAULT_SCHEDULES),
    timeZone: text("time_zone").notNull().default(DEFAULT_TIME_ZONE),
    ...timestamps,
  },
  (t) => [uniqueIndex("companies_name_key").on(t.name)],
);
