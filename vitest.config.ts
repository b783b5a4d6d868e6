import { defineConfig } from "vitest/config";

// The pinned AWS SDK supports Node 20.19+; its notice about future releases is noise in test logs.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/**
 * Two projects: `unit` (packages/<pkg>/test, no services) and `integration` (test/, against one
 * local stack started once per run by test/setup/global-setup.ts). `npm test` runs both.
 */
export default defineConfig({
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["packages/*/test/**/*.test.ts", "stacks/test/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // The browser broker launches one Chromium per run, only once a browser test asks for it.
          globalSetup: ["test/setup/global-setup.ts", "test/browser/support/browser-broker.setup.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
