import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Fault tests: real server processes on a scratch PostgreSQL database, killed with SIGKILL and restarted.
// One file at a time: each one loads the 2-core machine on its own, and timings (when the kill lands)
// mean nothing if two files compete for the processor.
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  test: {
    include: ["**/*.fault.ts"],
    globalSetup: ["support/global-setup.ts"],
    // a file should take a minute or two; the margin is for a 2-core machine that is busy with other work
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
