import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openTestDatabase } from "../test/app.js";
import { companies, settings, users } from "./schema/index.js";
import { seed } from "./seed.js";

describe("seed", () => {
  it("creates plan, company 1, its settings and the super admin once, and never changes a password", async () => {
    const database = await openTestDatabase();
    try {
      const email = `seed-${Date.now()}@test.charla`;
      const warnings: string[] = [];
      const log = { warn: (m: string) => warnings.push(m) } as never;
      await seed(database.db, { adminEmail: email, adminPassword: null, log });
      const [admin] = await database.db.select().from(users).where(eq(users.email, email));
      expect(admin).toMatchObject({ companyId: 1, profile: "admin", super: true });
      expect(admin.passwordHash).toMatch(/^\$argon2id\$/);
      expect(warnings.join()).toContain(email);

      await seed(database.db, { adminEmail: email, adminPassword: "another-one", log });
      const again = await database.db.select().from(users).where(eq(users.email, email));
      expect(again).toHaveLength(1);
      expect(again[0].passwordHash).toBe(admin.passwordHash);
      expect(warnings).toHaveLength(1);

      const [company] = await database.db.select().from(companies).where(eq(companies.id, 1));
      expect(company.name).toBe("Empresa 1");
      const keys = await database.db.select().from(settings).where(eq(settings.companyId, 1));
      expect(keys.map((k) => k.key)).toEqual(expect.arrayContaining(["userRating", "CheckMsgIsGroup", "chatBotType"]));
    } finally {
      await database.close();
    }
  });
});
