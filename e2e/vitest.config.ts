import { defineConfig } from "vitest/config";

// Browser tests: one Charla server per file on its own port and data folder, driven by Debian's chromium.
export default defineConfig({
  test: {
    include: ["**/*.e2e.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
