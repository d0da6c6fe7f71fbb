/**
 * Makes `app/domain/form-contracts.ts` and `app/domain/contracts/`: for every form schema in app/domain,
 * the HTML constraints of its fields, so that the pages can draw the fields without carrying zod
 * (decision 057), each form's in a module of its own (decision 063). Run it
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
export const CONTRACTS_DIR = path.join(DOMAIN, "contracts");

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

/** `LoginSchema` -> `login-schema`: a contract's module, in app/domain/contracts. */
function moduleName(schema: string): string {
  return schema.replace(/[A-Z]/g, (letter, index) => `${index ? "-" : ""}${letter.toLowerCase()}`);
}

const HEADER =
  "// Made by `npm run forms` from the form schemas of app/domain (decisions 057 and 063): change a schema, then run it.";

/**
 * The contracts' files, by path: one module per form in app/domain/contracts, so that a page's chunk
 * holds its own forms' contracts only (decision 063), their index, and `form-contracts.ts`, which
 * gives them to the pages as `FORMS` (a namespace, which the bundler reads member by member).
 */
export function contractsFiles(schemas: FormSchema[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const { module, name, schema } of schemas)
    files.set(
      path.join(CONTRACTS_DIR, `${moduleName(name)}.ts`),
      [
        HEADER,
        'import { formContract } from "~/lib/form-contract";',
        `import type { ${name} as Schema } from "../${module}";`,
        "",
        `export const ${name} = formContract<typeof Schema>(${JSON.stringify(name)}, ${JSON.stringify(formConstraint(schema))});`,
        "",
      ].join("\n"),
    );
  files.set(
    path.join(CONTRACTS_DIR, "index.ts"),
    [HEADER, ...schemas.map(({ name }) => `export { ${name} } from "./${moduleName(name)}";`), ""].join("\n"),
  );
  files.set(
    CONTRACTS_FILE,
    [
      HEADER,
      "",
      "/** Each form's fields and their HTML constraints, by its schema's name: what `useSchemaForm` draws a form from. */",
      'export * as FORMS from "./contracts";',
      "",
    ].join("\n"),
  );
  return files;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const files = contractsFiles(await formSchemas());
  fs.rmSync(CONTRACTS_DIR, { recursive: true, force: true });
  fs.mkdirSync(CONTRACTS_DIR);
  for (const [file, source] of files) fs.writeFileSync(file, source);
  execFileSync("npx", ["biome", "format", "--write", CONTRACTS_FILE, CONTRACTS_DIR], { stdio: "inherit" });
  console.log(
    `Wrote ${path.relative(process.cwd(), CONTRACTS_FILE)} and ${files.size - 1} files in ${path.relative(process.cwd(), CONTRACTS_DIR)}`,
  );
}
