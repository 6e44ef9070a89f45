import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const serverMain = fileURLToPath(new URL("../../server/dist/main.js", import.meta.url));

/**
 * The harness needs a PostgreSQL server to create scratch databases on and the built server to start.
 * On CI a missing database is an error (the fault tests would silently not run); on a developer's
 * machine the tests are skipped and this says why.
 */
export default function setup(): void {
  if (!process.env.TEST_DATABASE_URL) {
    const reason =
      "TEST_DATABASE_URL is not set: the fault tests start servers on a scratch database of a real PostgreSQL " +
      "(e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres, a role that may create databases)";
    if (process.env.CI === "true") throw new Error(`${reason}. CI must export it (.ci/run does).`);
    console.warn(`\nfaults: every fault test is skipped. ${reason}.\n`);
    return;
  }
  if (!existsSync(serverMain))
    throw new Error(`${serverMain} is missing: run \`npm run test:faults\`, which builds first, or \`npm run build\``);
}
