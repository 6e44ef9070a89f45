export * from "./auth.js";
export * from "./companies.js";
export * from "./contacts.js";
export * from "./plans.js";
export * from "./queues.js";
export * from "./settings.js";
export * from "./users.js";
export * from "./whatsapps.js";
