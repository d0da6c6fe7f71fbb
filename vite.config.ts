import { reactRouter } from "@react-router/dev/vite";
import { defineConfig } from "vite";
import path from "node:path";

/**
 * The analytics collector thread loads its module's chunk (server/analytics/collector-thread.server.ts):
 * that chunk holds the thread's code and the few modules it needs, so the thread never loads the rest
 * of the server (decision 026). Rollup puts these modules' own dependencies there too;
 * scripts/check-server-build.mjs fails a build whose chunk imports more than Node's own modules.
 */
const ANALYTICS_THREAD_MODULES = [
  "server/analytics/collector-thread.server.ts",
  "server/analytics/http-analytics.server.ts",
  "server/analytics/batcher.server.ts",
  "server/analytics/events.server.ts",
  "server/observability/logger.server.ts",
].map((file) => path.resolve(import.meta.dirname, file));

function analyticsThreadChunk(id: string): string | undefined {
  return ANALYTICS_THREAD_MODULES.includes(id) ? "analytics-thread" : undefined;
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [reactRouter()],
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "#server": path.resolve(import.meta.dirname, "server"),
    },
  },
  build: {
    assetsInlineLimit: 0,
    // One server build: the Express app and the routes are compiled together into build/server
    // (docs/decisions/010). Its source maps tell scripts/check-server-build.mjs which modules each
    // file holds (and map stack traces under node --enable-source-maps).
    ...(isSsrBuild
      ? {
          rollupOptions: { input: "./server/production.ts", output: { manualChunks: analyticsThreadChunk } },
          sourcemap: true,
        }
      : // The browser's code is minified by terser, two passes: about 3 KB less (gzip) on every page than
        // esbuild's minifier, most of it in React Router's own chunk (docs/decisions/024).
        { minify: "terser" as const, terserOptions: { compress: { passes: 2 }, format: { comments: false } } }),
  },
}));
