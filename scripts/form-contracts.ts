/**
 * Makes `app/domain/form-contracts.ts`: for every form schema in app/domain, the HTML constraints of
 * its fields, so that the pages can draw the fields without carrying zod (decision 057). Run it
 * after changing a form schema: `npm run forms`. `app/domain/form-contracts.test.ts` fails while the
 * file is out of date.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import { NOT_FORMS, NOT_SCHEMA_MODULES } from "../app/domain/form-registry";
import { formConstraint } from "../app/lib/form-constraint";

const DOMAIN = path.resolve(import.meta.dirname, "../app/domain");
export const CONTRACTS_FILE = path.join(DOMAIN, "form-contracts.ts");

export type FormSchema = { module: string; name: string; schema: z.ZodObject };

/** Every form's schema: the `…Schema` exports of app/domain's modules that are zod objects, but the ones NOT_FORMS names. */
export async function formSchemas(): Promise<FormSchema[]> {
  const modules = fs
    .readdirSync(DOMAIN)
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !NOT_SCHEMA_MODULES.includes(file))
    .sort();
  const found: FormSchema[] = [];
  for (const file of modules) {
    const exports: Record<string, unknown> = await import(pathToFileURL(path.join(DOMAIN, file)).href);
    for (const [name, value] of Object.entries(exports)) {
      if (!name.endsWith("Schema") || !(value instanceof z.ZodType) || name in NOT_FORMS) continue;
      if (!(value instanceof z.ZodObject)) throw new Error(`${name} in ${file}: a form's schema is a z.object`);
      found.push({ module: file.replace(/\.ts$/, ""), name, schema: value });
    }
  }
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

export function contractsSource(schemas: FormSchema[]): string {
  const modules = [...new Set(schemas.map((s) => s.module))].sort();
  const imports = modules.map(
    (module) =>
      `import type { ${schemas
        .filter((s) => s.module === module)
        .map((s) => s.name)
        .join(", ")} } from "./${module}";`,
  );
  const entries = schemas.map(
    ({ name, schema }) =>
      `  ${name}: formContract<typeof ${name}>(${JSON.stringify(name)}, ${JSON.stringify(formConstraint(schema))}),`,
  );
  return [
    "// Made by `npm run forms` from the form schemas of app/domain (decision 057): change a schema, then run it.",
    'import { formContract } from "~/lib/form-contract";',
    ...imports,
    "",
    "/** Each form's fields and their HTML constraints, by its schema's name: what `useSchemaForm` draws a form from. */",
    "export const FORMS = {",
    ...entries,
    "};",
    "",
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  fs.writeFileSync(CONTRACTS_FILE, contractsSource(await formSchemas()));
  execFileSync("npx", ["biome", "format", "--write", CONTRACTS_FILE], { stdio: "inherit" });
  console.log(`Wrote ${path.relative(process.cwd(), CONTRACTS_FILE)}`);
}
