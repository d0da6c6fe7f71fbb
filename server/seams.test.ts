import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

describe("the seams the code keeps (docs/architecture.md)", () => {
  it("route modules reach the back end and the store only through use cases", () => {
    const offenders = sources("app").filter((file) => /services\.(spa|store|stores)\b|\.spa\.\w+\(/.test(read(file)));
    expect(offenders).toEqual([]);
  });

  it("the session cookies are written in one place", () => {
    const writers = [...sources("app"), ...sources("server")].filter((file) =>
      /commitSession\(|destroySession\(/.test(read(file)),
    );
    expect(writers).toEqual(["server/session.server.ts"]);
  });

  it("the sandbox prices invoices with its own campaign code, never the storefront's discount functions", () => {
    // (Seeding the storefront's own promo records with the storefront's types is not pricing.)
    const borrowers = sources("server/spa-sandbox").filter((file) =>
      /\b(applyDiscounts|discountFor|ruleMatches|percentOf)\b/.test(read(file)),
    );
    expect(borrowers).toEqual([]);
  });
});
