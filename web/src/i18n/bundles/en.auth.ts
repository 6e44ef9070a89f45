import errors from "virtual:error-texts/en";
import { byNamespace } from "./by-namespace";

// What the login page shows; see ../texts.ts for the split.
export default {
  ...byNamespace(import.meta.glob(["../en/common.json", "../en/login.json"], { eager: true, import: "default" })),
  errors,
};
