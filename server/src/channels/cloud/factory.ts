import type { Config } from "../../config.js";
import type { DriverFactory } from "../driver.js";
import { CloudDriver, type CloudHost } from "./driver.js";
import { type GraphClientOptions, GraphClient, type GraphCredentials } from "./graph-client.js";

/**
 * Provider "cloud" bound to an app (its database, secrets, Graph API URL). The driver opens the
 * connection's sealed token itself, from its row, on each call: nothing is read at build time.
 */
export function cloudFactory(host: CloudHost): DriverFactory {
  return (ctx) => new CloudDriver(ctx, host);
}

/**
 * A probe with credentials not saved yet (the connection form's save): the number's display digits and
 * verified name, or a CloudError with the catalogue's code (ERR_CLOUD_AUTH for a refused token).
 */
export function probeCloudCredentials(
  config: Pick<Config, "graphApiUrl">,
  creds: GraphCredentials,
  opts: Partial<Omit<GraphClientOptions, "baseUrl">> = {},
): Promise<{ number: string; name: string }> {
  return new GraphClient(creds, { ...opts, baseUrl: config.graphApiUrl }).phoneNumber();
}
