import madge from "madge";
const res = await madge(["server", "app"], { fileExtensions: ["ts", "tsx"], tsConfig: "tsconfig.json" });
const obj = res.obj();
const folder = (f) => { const p = f.split("/"); if (p[0]==="server"||p[0]==="app") return p.length > 2 ? p.slice(0,2).join("/") : p[0]+"/(root)"; return p[0]; };
const edges = new Map();
const prod = (f) => !/\.test(-support)?\.tsx?$/.test(f) && /^(server|app)\//.test(f);
for (const [from, tos] of Object.entries(obj)) for (const to of tos) { if (!prod(from)) continue;
  const a = folder(from), b = folder(to); if (a===b) continue;
  const k = a+" -> "+b; if (!edges.has(k)) edges.set(k, []); edges.get(k).push(from+" -> "+to);
}
const seen = new Set();
for (const k of edges.keys()) { const [a,b]=k.split(" -> "); const r=b+" -> "+a; if (edges.has(r) && !seen.has(r)) { seen.add(k); console.log("MUTUAL", a, "<->", b); for (const e of edges.get(k)) console.log("   ", e); for (const e of edges.get(r)) console.log("   ", e);} }
console.log("circular:", res.circular().length);
console.log("warnings:", JSON.stringify(res.warnings()).slice(0,2000));
