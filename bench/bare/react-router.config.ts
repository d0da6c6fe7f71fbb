import type { Config } from "@react-router/dev/config";

// The baseline of `npm run bench`: one bare server-rendered page of the same React Router version.
export default { ssr: true, appDirectory: "app" } satisfies Config;
