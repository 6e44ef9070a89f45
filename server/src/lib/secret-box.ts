import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

/**
 * Seals third-party secrets stored in the database (connections' API tokens, prompts' API keys,
 * webhook signing secrets) with AES-256-GCM under the install's key (config.secretsKey), so a copy of
 * the database alone does not give them away. "" stays "" (no secret). A sealed value is
 * `v1.<iv>.<tag>.<ciphertext>`, base64url parts.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secretsKey: string) {
    const raw = /^[0-9a-f]{64}$/i.test(secretsKey) ? Buffer.from(secretsKey, "hex") : Buffer.from(secretsKey, "base64");
    // a key of another length (a passphrase) is stretched to 32 bytes rather than refused
    this.key = raw.length === 32 ? raw : createHash("sha256").update(secretsKey).digest();
  }

  seal(plain: string): string {
    if (plain === "") return "";
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
  }

  /** The secret, or "" for none; a value sealed under another key throws (the install's key changed). */
  open(sealed: string): string {
    if (sealed === "") return "";
    const [version, iv, tag, data] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
  }
}

/** What a secret looks like when shown back: its last 4 characters, the rest masked. */
export function maskSecret(plain: string): string {
  if (plain === "") return "";
  return `${"•".repeat(8)}${plain.slice(-4)}`;
}

/** A lookup key for a bearer secret: its sha-256, hex (the secret itself is sealed, never indexed). */
export function secretHash(plain: string): string {
  return createHash("sha256").update(plain, "utf8").digest("hex");
}
