import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREPARED_PER_CONNECTION, preparingClient } from "./prepared.js";

const url = process.env.TEST_DATABASE_URL;

describe.runIf(url)("preparingClient (real PostgreSQL)", () => {
  let pool: pg.Pool;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url, max: 1, Client: preparingClient(pg.Client) });
  });
  afterAll(() => pool.end());

  const prepared = async (client: pg.PoolClient) =>
    (await client.query("select statement from pg_prepared_statements order by statement")).rows.map(
      (r: { statement: string }) => r.statement,
    );

  it("prepares a parameterised statement once per connection and leaves the others unnamed", async () => {
    const client = await pool.connect();
    try {
      for (const n of [1, 2, 3]) {
        const { rows } = await client.query({ text: "select $1::int + 1 as next" }, [n]);
        expect(rows[0].next).toBe(n + 1);
      }
      await client.query("select 1");
      await client.query({ text: "select 2 as two" });
      expect(await prepared(client)).toEqual(["select $1::int + 1 as next"]);
      // a statement that fails to run keeps the connection and the statement usable
      await expect(client.query({ text: "select 1 / $1::int" }, [0])).rejects.toThrow(/division by zero/);
      expect((await client.query({ text: "select 1 / $1::int as q" }, [1])).rows[0].q).toBe(1);
    } finally {
      client.release();
    }
  });

  it("stops naming new statements past the per-connection cap", async () => {
    const client = await pool.connect();
    try {
      for (let i = 0; i < PREPARED_PER_CONNECTION + 20; i++) await client.query({ text: `select $1::int + ${i} as v` }, [1]);
      expect((await prepared(client)).length).toBe(PREPARED_PER_CONNECTION);
      // the ones past the cap still answer, planned each time
      expect((await client.query({ text: `select $1::int + ${PREPARED_PER_CONNECTION + 5} as v` }, [1])).rows[0].v).toBe(
        PREPARED_PER_CONNECTION + 6,
      );
    } finally {
      client.release();
    }
  });
});
