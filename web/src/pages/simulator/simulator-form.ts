import { SimulatorInboundForm, V } from "@charla/contracts";
import { z } from "zod";

/**
 * The customer and the text box: the contract's own fields, with an empty number reading "required"
 * rather than "invalid". Everything else a message can carry is added when it is sent.
 */
export const CustomerMessageSchema = SimulatorInboundForm.pick({ name: true, body: true }).extend({
  number: z.string().trim().min(1, V.required).pipe(SimulatorInboundForm.shape.number),
});
export type CustomerMessageValues = z.input<typeof CustomerMessageSchema>;
export type CustomerMessageOutput = z.output<typeof CustomerMessageSchema>;

export const emptyCustomerMessage: CustomerMessageValues = { number: "", name: "", body: "" };

/** Files above this are refused before reading them (the API takes about 9 MB once decoded). */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export type FileMediaType = "image" | "audio" | "video" | "application";

export function mediaTypeOfMime(mimetype: string): FileMediaType {
  const kind = mimetype.split("/")[0];
  return kind === "image" || kind === "audio" || kind === "video" ? kind : "application";
}

/** The file as plain base64 (no `data:…;base64,` prefix), as the API expects. */
export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = String(reader.result ?? "");
      resolve(result.slice(result.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("read failed"));
    reader.readAsDataURL(file);
  });
}
