import errors from "virtual:error-texts/es";
import { byNamespace } from "./by-namespace";

// What the login page shows; see ../texts.ts for the split.
export default {
  ...byNamespace(import.meta.glob(["../es/common.json", "../es/login.json"], { eager: true, import: "default" })),
  errors,
};
