import path from "node:path";
import madge from "madge";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** Reading the whole graph parses every file of server/ and app/: slow on a busy machine, never a speed check. */
const GRAPH_TIMEOUT_MS = 180_000;

/**
 * The folder a module belongs to for the one-way rule: `server/<feature>` or `app/<folder>` (each
 * `app/routes/<feature>` on its own). The files directly under `server/` (the composition root, the
 * services' types, the request context and the shared helpers) and directly under `app/` are the
 * shell, not a feature: every feature imports `server/services.ts` and the composition root imports
 * every feature, by design. Their circles are still caught by the first test.
 */
function folderOf(file: string): string | null {
  const parts = file.split("/");
  if (parts[0] === "app" && parts[1] === "routes") return parts.length > 3 ? parts.slice(0, 3).join("/") : null;
  if ((parts[0] === "server" || parts[0] === "app") && parts.length > 2) return parts.slice(0, 2).join("/");
  return null;
}

/** A test may reach across folders (a use case's test starts the sandbox); nothing imports a test. */
const isProductionModule = (file: string) => /^(server|app)\//.test(file) && !/\.test(-support)?\.tsx?$/.test(file);

/** Every pair of folders that import each other's modules, with the imports that make each way. */
export function foldersBothWays(graph: Record<string, string[]>): { folders: [string, string]; imports: string[] }[] {
  const ways = new Map<string, string[]>();
  for (const [from, imported] of Object.entries(graph)) {
    if (!isProductionModule(from)) continue;
    for (const to of imported) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (!a || !b || a === b) continue;
      const key = `${a} -> ${b}`;
      ways.set(key, [...(ways.get(key) ?? []), `${from} -> ${to}`]);
    }
  }
  const pairs: { folders: [string, string]; imports: string[] }[] = [];
  for (const [key, imports] of ways) {
    const [a, b] = key.split(" -> ");
    const back = ways.get(`${b} -> ${a}`);
    if (back && a < b) pairs.push({ folders: [a, b], imports: [...imports, ...back] });
  }
  return pairs;
}

describe("the import graph of server/ and app/ (decision 049)", () => {
  let graph: Awaited<ReturnType<typeof madge>>;

  beforeAll(async () => {
    // Type imports count: `import type` circles still tie the modules' meaning together. Left out:
    // the route types React Router generates under .react-router/ (each imports its own route
    // module back by design, and exists only once `react-router typegen` has run).
    graph = await madge(["server", "app"], {
      baseDir: root,
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(root, "tsconfig.json"),
      excludeRegExp: [/^\.react-router\//],
    });
  }, GRAPH_TIMEOUT_MS);

  it("reads the project's own modules, aliases included", () => {
    const modules = graph.obj();
    // A graph that resolved nothing would have no circles either: check it sees what it must.
    expect(modules["server/compose.server.ts"]).toContain("server/services.ts");
    expect(modules["app/routes/visits/rebook.ts"]).toContain("server/booking/rebook.server.ts");
    expect(modules["server/booking/payment-step.server.ts"]).toContain("app/domain/payment.ts");
  });

  it("has no import circle", () => {
    expect(graph.circular()).toEqual([]);
  });

  it("has no two feature folders that import each other", () => {
    expect(foldersBothWays(graph.obj())).toEqual([]);
  });

  it("keeps the services' types apart from their wiring: nothing services.ts imports leads back to it or to the composition root", () => {
    const modules = graph.obj();
    const reached = new Set<string>();
    const pending = [...modules["server/services.ts"]];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      pending.push(...(modules[file] ?? []));
    }
    expect(reached).toContain("server/store/stores.server.ts");
    expect([...reached].filter((file) => file === "server/services.ts" || file === "server/compose.server.ts")).toEqual(
      [],
    );
  });
});

describe("two feature folders that import each other", () => {
  it("are found from one import each way, and only from production modules", () => {
    const graph = {
      "server/booking/a.server.ts": ["server/referrals/b.server.ts"],
      "server/referrals/b.server.ts": ["server/booking/draft.server.ts"],
      "server/pricing/c.server.ts": ["server/booking/a.server.ts"],
      "server/booking/a.test.ts": ["server/pricing/c.server.ts"],
      "server/compose.server.ts": ["server/booking/a.server.ts"],
      "server/booking/draft.server.ts": ["server/services.ts"],
    };
    expect(foldersBothWays(graph)).toEqual([
      {
        folders: ["server/booking", "server/referrals"],
        imports: [
          "server/booking/a.server.ts -> server/referrals/b.server.ts",
          "server/referrals/b.server.ts -> server/booking/draft.server.ts",
        ],
      },
    ]);
  });
});
