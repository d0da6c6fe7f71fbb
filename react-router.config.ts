import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // Opt-ins to React Router 8 behaviour, decided one by one when we move to it.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_trailingSlashAwareDataRequests: false,
    v8_passThroughRequests: false,
  },
} satisfies Config;
