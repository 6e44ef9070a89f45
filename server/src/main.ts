import { loadConfig } from "./config.js";
import { buildApp } from "./app.js";

const config = loadConfig();
const app = await buildApp(config);

const shutdown = async (signal: string) => {
  app.log.info({ signal }, "shutting down");
  await app.close();
  process.exit(0);
};
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

await app.listen({ port: config.port, host: config.host });
app.log.info(`Charla at http://localhost:${config.port} (database: ${app.charla.dbKind})`);
const resumed = await app.charla.sessions.resumeAll();
if (resumed) app.log.info(`${resumed} WhatsApp session(s) resuming`);
