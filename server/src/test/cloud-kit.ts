import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { whatsapps } from "../db/schema/index.js";
import type { FakeGraph } from "./fake-graph.js";

export type CloudConnectionOver = Partial<Omit<typeof whatsapps.$inferInsert, "companyId">> & {
  /** Plain secrets (sealed here); random when not given, the access token the fake's. */
  accessToken?: string;
  appSecret?: string;
  verifyToken?: string;
};

/** A Cloud API connection row and the plain secrets it was sealed with. */
export type CloudConnection = typeof whatsapps.$inferSelect & {
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  webhookKey: string;
};

/**
 * A Cloud API connection (provider "cloud") pointed at the fake Graph server's ids and token, its
 * secrets sealed with the app's key, status CONNECTED, a webhook key of its own. The app must be built
 * with `graphApiUrl: fake.baseUrl` for its driver to reach the fake.
 */
export async function cloudConnection(
  app: FastifyInstance,
  companyId: number,
  fake: Pick<FakeGraph, "accessToken" | "phoneNumberId" | "businessAccountId" | "displayPhoneNumber">,
  over: CloudConnectionOver = {},
): Promise<CloudConnection> {
  const {
    accessToken = fake.accessToken,
    appSecret = randomBytes(16).toString("hex"),
    verifyToken = randomBytes(12).toString("hex"),
    ...values
  } = over;
  const secrets = app.charla.secrets;
  const webhookKey = values.cloudWebhookKey ?? randomBytes(24).toString("base64url");
  const [row] = await app.charla.db
    .insert(whatsapps)
    .values({
      companyId,
      name: `Cloud ${randomBytes(4).toString("hex")}`,
      provider: "cloud",
      status: "CONNECTED",
      number: fake.displayPhoneNumber.replace(/\D/g, ""),
      cloudPhoneNumberId: fake.phoneNumberId,
      cloudBusinessAccountId: fake.businessAccountId,
      cloudAccessTokenSealed: secrets.seal(accessToken),
      cloudAppSecretSealed: secrets.seal(appSecret),
      cloudVerifyTokenSealed: secrets.seal(verifyToken),
      ...values,
      cloudWebhookKey: webhookKey,
    })
    .returning();
  return { ...row, accessToken, appSecret, verifyToken, webhookKey };
}
