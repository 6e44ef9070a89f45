import { defineConfig } from "vitest/config";

// Browser tests: one Charla server per file on its own port and data folder, driven by Debian's chromium.
export default defineConfig({
  test: {
    include: ["**/*.e2e.ts"],
    testTimeout: 60_000,
    // starting a server on a busy machine can take minutes (support/server.ts waits for it to answer)
    hookTimeout: 600_000,
    // a poll ends as soon as its condition holds; Vitest's own 1 s bound broke on a busy machine (a
    // second tab's cold load of the campaign report took longer in CI). Polls that set their own keep it
    expect: { poll: { timeout: 30_000 } },
    pool: "forks",
    maxWorkers: 1,
    fileParallelism: false,
  },
});
