import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests import @charla/contracts from its TypeScript source, so `npm install && npm test` needs no build.
// An alias rather than export conditions: Vitest's global setup resolves packages without the
// configured conditions, and a fresh clone has no contracts/dist to fall back on.
const contractsSource = fileURLToPath(new URL("./contracts/src/index.ts", import.meta.url));

export default defineConfig({
  resolve: { alias: { "@charla/contracts": contractsSource } },
  test: {
    include: ["contracts/src/**/*.test.ts", "server/src/**/*.test.ts", "web/src/**/*.test.ts"],
    globalSetup: ["server/src/test/global-setup.ts"],
    setupFiles: ["server/src/test/setup.ts"],
    // no per-test or per-hook limit (0): a busy machine broke the fixed ones; the stall watchdog
    // ends a hung run instead (see server/src/test/stall-watchdog.ts)
    testTimeout: 0,
    hookTimeout: 0,
    // a poll ends as soon as its condition holds: a wide bound costs a passing test nothing, where
    // each file's own few seconds broke under load (a real miss still ends, and says what it saw)
    expect: { poll: { timeout: 120_000 } },
    reporters: ["default", "./server/src/test/stall-watchdog.ts"],
    pool: "forks",
    maxWorkers: 2,
    // a worker's files share its module cache: importing the server (fastify, drizzle, exceljs, the
    // contracts...) cost 3-5 s of every file, 330 of a run's 780 worker-seconds. So a file must leave
    // no module state behind that another file could trip on: per-app state lives on the app (its
    // Services) and ends with app.close(); timers stop on close; env and globals a test changes are
    // put back; vi.mock is not used. Checked in shuffled file orders (--sequence.shuffle.files).
    isolate: false,
  },
});
