import errors from "virtual:error-texts/pt";
import { byNamespace } from "./by-namespace";

// What the login page shows; see ../texts.ts for the split.
export default {
  ...byNamespace(import.meta.glob(["../pt/common.json", "../pt/login.json"], { eager: true, import: "default" })),
  errors,
};
