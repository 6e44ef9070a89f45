import { defineConfig } from "vitest/config";

// Tests import @charla/contracts from source (the "source" export condition), so no build is needed first.
export default defineConfig({
  resolve: { conditions: ["source", "module", "node", "default"] },
  ssr: { resolve: { conditions: ["source", "module", "node", "default"], externalConditions: ["source"] } },
  test: {
    include: ["contracts/src/**/*.test.ts", "server/src/**/*.test.ts"],
    globalSetup: ["server/src/test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    maxWorkers: 2,
  },
});
