import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    projects: [
      ...["packages/domain", "packages/ingest", "packages/server"].map((root) => ({
        extends: true as const,
        test: { name: root.split("/")[1] ?? root, root, include: ["src/**/*.test.ts"] }
      })),
      { extends: true as const, test: { name: "bench", root: "bench", include: ["**/*.test.ts"], exclude: ["cache/**"] } }
    ]
  }
})
