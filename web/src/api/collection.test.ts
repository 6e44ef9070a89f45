import { type InfiniteData, QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { defineCollection } from "./collection";
import { inFlightEvents } from "./live-order";

type Row = { id: number; name: string; status: string; updatedAt: string };
type Page = { rows: Row[]; hasMore: boolean; count: number };

const rows = defineCollection<Row>({
  name: "rows",
  path: "/rows",
  pageField: "rows",
  matches: (row, search) => row.name.includes(search),
});

const at = (second: number, status: string): Row => ({
  id: 1,
  name: "Bienvenida",
  status,
  updatedAt: new Date(Date.UTC(2026, 10, 26, 10, 0, second)).toISOString(),
});

function seeded(row: Row): QueryClient {
  const client = new QueryClient();
  client.setQueryData<InfiniteData<Page, number>>(rows.keys.list(""), {
    pages: [{ rows: [row], hasMore: false, count: 1 }],
    pageParams: [1],
  });
  client.setQueryData(rows.keys.detail(row.id), row);
  return client;
}

const listed = (client: QueryClient) =>
  client.getQueryData<InfiniteData<Page, number>>(rows.keys.list(""))?.pages.flatMap((page) => page.rows);

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("live rows and late answers", () => {
  it("a save's answer that arrives after the events of what followed does not put the older state back", () => {
    const client = seeded(at(0, "INATIVA"));
    // the campaign scheduled for now: its start and its end arrive live first…
    rows.upsert(client, at(2, "EM_ANDAMENTO"));
    rows.upsert(client, at(3, "FINALIZADA"));
    // …then the PUT's answer, written a moment before the start
    rows.upsert(client, at(1, "PROGRAMADA"));
    expect(listed(client)?.map((row) => row.status)).toEqual(["FINALIZADA"]);
    expect(client.getQueryData<Row>(rows.keys.detail(1))?.status).toBe("FINALIZADA");
  });

  it("a newer or equally stamped state still replaces the cached one", () => {
    const client = seeded(at(1, "PROGRAMADA"));
    rows.upsert(client, { ...at(1, "PROGRAMADA"), name: "Bienvenida 2" });
    expect(listed(client)?.[0]?.name).toBe("Bienvenida 2");
    rows.upsert(client, at(4, "FINALIZADA"));
    expect(listed(client)?.map((row) => row.status)).toEqual(["FINALIZADA"]);
  });

  it("an event applied while a read is on its way is applied again when that read lands without it", async () => {
    const client = new QueryClient();
    const replayed = inFlightEvents(["rows"]);
    const stop = replayed.watch(client);
    const answer = deferred<Row[]>();
    const read = client.fetchQuery({ queryKey: ["rows", "list", ""], queryFn: () => answer.promise });

    const finished = at(3, "FINALIZADA");
    replayed.note(client, () => client.setQueryData<Row[]>(["rows", "list", ""], [finished]));
    // the read began before the campaign finished and answers what it saw then
    answer.resolve([at(1, "PROGRAMADA")]);
    await read;
    expect(client.getQueryData<Row[]>(["rows", "list", ""])?.map((row) => row.status)).toEqual(["FINALIZADA"]);

    // the replay is once: a later read's answer stands
    await client.fetchQuery({ queryKey: ["rows", "list", ""], queryFn: async () => [at(5, "CANCELADA")], staleTime: 0 });
    expect(client.getQueryData<Row[]>(["rows", "list", ""])?.map((row) => row.status)).toEqual(["CANCELADA"]);
    stop();
  });

  it("a paged list's read that lands after an event keeps the event's row", async () => {
    const client = new QueryClient();
    const replayed = inFlightEvents(rows.keys.all);
    const stop = replayed.watch(client);
    const answer = deferred<Page>();
    const read = client.fetchInfiniteQuery({
      queryKey: rows.keys.list(""),
      queryFn: () => answer.promise,
      initialPageParam: 1,
    });
    // the list's first read is still on its way when the campaign's end arrives: nothing to change yet
    replayed.note(client, () => rows.upsert(client, at(3, "FINALIZADA")));
    answer.resolve({ rows: [at(1, "PROGRAMADA")], hasMore: false, count: 1 });
    await read;
    expect(listed(client)?.map((row) => row.status)).toEqual(["FINALIZADA"]);
    stop();
  });
});
