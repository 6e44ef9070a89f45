// Issue 26's crafted import files, and the .xlsx files of the review after it (megabytes of empty
// cells past column Z, millions of unused shared strings), through the contact-list sheet reader, each
// in a process of its own: peak RSS over the baseline, time, the answer, the longest the event loop was
// held (a 10 ms timer's worst lateness: what a /healthz request would have waited) and what was left
// in the temp folder.
// Usage: npx tsx bench/imports.ts [--src <server/src of another tree>] [--mb 300] [--rows 40000]
// (`--src` measures another checkout, e.g. the commit before a fix, with this file's crafted files.)
import { spawn } from "node:child_process";
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { monitorEventLoopDelay } from "node:perf_hooks";

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1];
};
const root = fileURLToPath(new URL("..", import.meta.url));
const src = resolve(opt("src", join(root, "server/src")));
const megabytes = Number(opt("mb", "300"));
const rows = Number(opt("rows", "40000"));
const STALL_TARGET_MS = 200;

type Scenario = { name: string; kind: "xlsx" | "csv"; parallel: number; build: (crafted: Crafted) => Promise<Buffer> | Buffer };
type Crafted = typeof import("../server/src/test/crafted-sheets.js");
const scenarios: Scenario[] = [
  {
    name: `padded bomb (${megabytes} MB sheet + ${megabytes} MB strings)`,
    kind: "xlsx",
    parallel: 1,
    build: (c) => c.paddedBomb(megabytes),
  },
  { name: `Excel order, ${rows} rows`, kind: "xlsx", parallel: 1, build: (c) => c.excelOrderSheet(rows) },
  { name: "8 MB of empty cells past Z, one row", kind: "xlsx", parallel: 1, build: (c) => c.farCellsSheet(8) },
  { name: "60 MB of empty cells past Z, one row", kind: "xlsx", parallel: 1, build: (c) => c.farCellsSheet(60) },
  {
    name: "60 MB of empty cells past Z, 16,000 a row",
    kind: "xlsx",
    parallel: 1,
    build: (c) => c.farCellsSheet(60, 16_000),
  },
  { name: "2.6 million unused shared strings", kind: "xlsx", parallel: 1, build: (c) => c.manyStringsSheet(2_600_000) },
  { name: "10 MB CSV, one long field", kind: "csv", parallel: 1, build: (c) => c.longFieldCsv(10 * 1024 * 1024 - 1024) },
  {
    name: "10 MB CSV, one long field, four at once",
    kind: "csv",
    parallel: 4,
    build: (c) => c.longFieldCsv(10 * 1024 * 1024 - 1024),
  },
];

async function build(index: number): Promise<Buffer> {
  const crafted = await import(pathToFileURL(join(root, "server/src/test/crafted-sheets.ts")).href);
  return scenarios[index].build(crafted);
}

async function child(index: number) {
  const s = scenarios[index];
  const file = await build(index);
  // read from disk as the server reads a stored upload (64 KB at a time), kept out of the temp folder
  const upload = join(mkdtempSync(join(opt("uploads", tmpdir()), "upload-")), "file");
  writeFileSync(upload, file);
  const { sheetRows } = await import(pathToFileURL(join(src, "modules/contact-lists/spreadsheet.ts")).href);
  globalThis.gc?.();
  // tsx keeps its compile cache there too: count what the read adds
  const tempBefore = leftIn(tmpdir());
  const base = process.memoryUsage().rss;
  let peak = base;
  let worstLate = 0;
  let last = performance.now();
  const tick = setInterval(() => {
    const now = performance.now();
    worstLate = Math.max(worstLate, now - last - 10);
    last = now;
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const started = performance.now();
  const one = async () => {
    let n = 0;
    try {
      for await (const _ of sheetRows(createReadStream(upload), s.kind, 50_000)) n++;
      return `${n} rows`;
    } catch (err) {
      return (err as { code?: string }).code ?? String(err);
    }
  };
  const answers = await Promise.all(Array.from({ length: s.parallel }, one));
  const ms = performance.now() - started;
  loop.disable();
  clearInterval(tick);
  // a loop held to the end never ran the timer again
  worstLate = Math.max(worstLate, performance.now() - last - 10);
  rmSync(upload);
  peak = Math.max(peak, process.memoryUsage().rss);
  const out = {
    file: file.length,
    answers: [...new Set(answers)].join(" "),
    ms: Math.round(ms),
    rssBase: base,
    rssPeak: peak,
    stallMs: Math.round(worstLate),
    // before exit: exceljs's temp files are removed when the process ends, not when the read does
    tempLeft: leftIn(tmpdir()) - tempBefore,
    loopMaxMs: Math.round(loop.max / 1e6),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function leftIn(dir: string, skipTsx = false): number {
  let bytes = 0;
  for (const f of readdirSync(dir, { recursive: true }) as string[]) {
    if (skipTsx && f.startsWith("tsx")) continue;
    const st = statSync(join(dir, f));
    if (st.isFile()) bytes += st.size;
  }
  return bytes;
}

async function parent() {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log(`reader: ${src}`);
  for (let i = 0; i < scenarios.length; i++) {
    const temp = mkdtempSync(join(tmpdir(), "charla-bench-imports-"));
    const uploads = mkdtempSync(join(tmpdir(), "charla-bench-uploads-"));
    const proc = spawn(
      process.execPath,
      [
        "--expose-gc",
        // @charla/contracts from its source, as the tests read it (its dist may be older)
        "--conditions=source",
        "--import",
        "tsx",
        fileURLToPath(import.meta.url),
        "--child",
        String(i),
        "--src",
        src,
        "--mb",
        String(megabytes),
        "--rows",
        String(rows),
        "--uploads",
        uploads,
      ],
      {
        env: { ...process.env, TMPDIR: temp },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let text = "";
    proc.stdout.on("data", (c) => (text += c));
    await new Promise((r) => proc.on("exit", r));
    const atExit = leftIn(temp, true);
    rmSync(temp, { recursive: true, force: true });
    rmSync(uploads, { recursive: true, force: true });
    const r = JSON.parse(text.trim().split("\n").at(-1) ?? "{}");
    console.log(
      `${scenarios[i].name}: file ${(r.file / 1024).toFixed(0)} KB → ${r.answers}; ${r.ms} ms; RSS ${mb(r.rssBase)} → peak ${mb(r.rssPeak)} (+${mb(r.rssPeak - r.rssBase)}); event loop held at most ${r.stallMs} ms (${r.stallMs <= STALL_TARGET_MS ? "within" : "PAST"} the ${STALL_TARGET_MS} ms target); temp folder ${mb(r.tempLeft)} after the read, ${mb(atExit)} after exit`,
    );
  }
}

if (args.includes("--child")) await child(Number(opt("child", "0")));
else await parent();
