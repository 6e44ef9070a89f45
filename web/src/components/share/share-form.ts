import { ContactCard, SharedLocation, V } from "@charla/contracts";
import { z } from "zod";

/** A typed coordinate ("19.43" or "19,43") as a number; NaN when it is none. */
export const toCoordinate = (value: string) => (value.trim() === "" ? Number.NaN : Number(value.trim().replace(",", ".")));

const coordinate = (field: z.ZodNumber) =>
  z
    .string()
    .trim()
    .min(1, V.required)
    .refine((value) => field.safeParse(toCoordinate(value)).success, V.invalid);

/** The location dialog types text; its checks are the contract's, on the converted numbers. */
export const LocationFormSchema = z.object({
  latitude: coordinate(SharedLocation.shape.latitude),
  longitude: coordinate(SharedLocation.shape.longitude),
  description: z.string().trim().max(300, V.tooLong),
});
export type LocationFormValues = z.input<typeof LocationFormSchema>;

export function toSharedLocation(values: LocationFormValues): SharedLocation {
  return {
    latitude: toCoordinate(values.latitude),
    longitude: toCoordinate(values.longitude),
    description: values.description.trim() || undefined,
  };
}

/** A contact card is typed as the contract takes it. */
export const ContactCardFormSchema = ContactCard;
export type ContactCardValues = z.input<typeof ContactCard>;
