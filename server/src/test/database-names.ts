/** The database a URL names. */
export const databaseOf = (url: string) => new URL(url).pathname.slice(1);

/** The same server's maintenance database, to create and drop others from. */
export function maintenanceUrl(url: string): string {
  const u = new URL(url);
  u.pathname = "/postgres";
  return u.toString();
}

/** The seeded schema the files' own databases are copied from (global-setup makes it). */
export const templateName = (url: string) => `${databaseOf(url)}_template`;

/** The prefix of those copies (global-setup drops any a killed run left behind). */
export const ownPrefix = (url: string) => `${databaseOf(url)}_own_`;

/** Where global-setup tells the test files its PGlite snapshot is (a file in the OS's temporary folder). */
export const PGLITE_SNAPSHOT_ENV = "CHARLA_TEST_PGLITE_SNAPSHOT";
