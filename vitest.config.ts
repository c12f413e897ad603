import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    pool: "forks",
    setupFiles: ["test/support/eventLoopTurn.ts"],
    globalSetup: ["test/support/tempRoot.ts"],
  },
});
