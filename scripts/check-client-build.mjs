// Run by `npm run build` after `react-router build`: the browser's code holds neither zod nor dayjs
// (decision 057).
// Forms are drawn from their contracts (app/domain/form-contracts.ts) and checked on the server; a
// schema that reaches a page brings all of zod with it (about 30 KB gzip on every page with a form).
// The usual cause is a schema or field declared at the top of an app/domain module without
// `defineSchema`, or a page that uses a schema itself instead of its contract.
import fs from "node:fs";
import path from "node:path";

const assets = path.resolve(import.meta.dirname, "..", "build", "client", "assets");
// zod keeps its internals under `_zod` on every schema and names its base type `$ZodType`; dayjs
// marks its objects `$isDayjsObject`.
const ZOD = /\._zod\b|\$ZodType/;
const DAYJS = /\$isDayjsObject/;

const withZod = fs
  .readdirSync(assets)
  .filter((file) => file.endsWith(".js") && ZOD.test(fs.readFileSync(path.join(assets, file), "utf8")));
const withDayjs = fs
  .readdirSync(assets)
  .filter((file) => file.endsWith(".js") && DAYJS.test(fs.readFileSync(path.join(assets, file), "utf8")));
if (withDayjs.length > 0) {
  process.stderr.write(
    `The browser's code holds dayjs, in ${withDayjs.join(", ")}: pages format dates with ~/lib/dates; ~/lib/dayjs is for the server (docs/decisions/057).\n`,
  );
  process.exit(1);
}
if (withZod.length > 0) {
  process.stderr.write(
    `The browser's code holds zod, in ${withZod.join(", ")}: declare top-level schemas with defineSchema and draw forms from FORMS (docs/decisions/057).\n`,
  );
  process.exit(1);
}
process.stdout.write("Client build checked: no zod and no dayjs in the browser's code.\n");
