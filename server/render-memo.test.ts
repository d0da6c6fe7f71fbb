import type { EntryContext } from "react-router";
import { describe, expect, it } from "vitest";
import { createRenderMemo, renderInputsKey, renderMemoKey, type RenderInputs } from "./render-memo.server";

const slot = { value: "2026-12-07T10:00:00", label: "10:00 AM" };
const timeStep = (data: Record<string, unknown> = {}): RenderInputs => ({
  url: "http://shop.example/appointment/time",
  status: 200,
  wholeDocument: false,
  loaderData: {
    root: { toast: null, signedIn: false, year: 2026 },
    "routes/appointment/time": {
      clinic: { id: "c1", name: "Austin" },
      date: "2026-12-07",
      slots: [slot],
      held: null,
      ...data,
    },
  },
});

describe("renderInputsKey", () => {
  it("gives the same key for the same data, however it was built", () => {
    const rebuilt = JSON.parse(JSON.stringify(timeStep())) as RenderInputs;
    expect(renderInputsKey(timeStep())).toBe(renderInputsKey(rebuilt));
    expect(renderInputsKey(timeStep())).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("gives another key when anything a page could show differs", () => {
    const base = renderInputsKey(timeStep());
    const variants: RenderInputs[] = [
      { ...timeStep(), url: "http://shop.example/appointment/time?date=2026-12-08" },
      { ...timeStep(), url: "http://other.example/appointment/time" },
      { ...timeStep(), status: 201 },
      { ...timeStep(), wholeDocument: true },
      timeStep({ held: "2026-12-07T10:00:00" }),
      timeStep({ slots: [] }),
      timeStep({ slots: [slot, slot] }),
      timeStep({ slots: [{ ...slot, label: "10:00 am" }] }),
      timeStep({ date: new Date("2026-12-07T00:00:00Z") }),
      timeStep({ held: undefined }),
      timeStep({ extra: undefined }),
      timeStep({ held: 0 }),
      timeStep({ held: -0 }),
      timeStep({ held: "0" }),
      timeStep({ held: false }),
      timeStep({ held: 0n }),
      timeStep({ held: Number.NaN }),
      timeStep({ held: {} }),
      timeStep({ held: [] }),
      timeStep({ held: Object.create(null) as object }),
    ];
    const keys = variants.map((inputs) => renderInputsKey(inputs));
    expect(keys).not.toContain(base);
    expect(keys).not.toContain(null);
    // The null-prototype object is the same data as {}, and a page cannot tell them apart.
    expect(new Set(keys).size).toBe(keys.length - 1);
  });

  it("keeps keys in their order, since a page may list them in it", () => {
    const ab = timeStep({ groups: { morning: 1, evening: 2 } });
    const ba = timeStep({ groups: { evening: 2, morning: 1 } });
    expect(renderInputsKey(ab)).not.toBe(renderInputsKey(ba));
  });

  it("cannot be fooled by text that looks like the encoding of other values", () => {
    const two = timeStep({ a: "x", b: "y" });
    const one = timeStep({ a: 'x"s1:b"y' });
    const shifted = timeStep({ a: "xs1:y" });
    const keys = [two, one, shifted].map((inputs) => renderInputsKey(inputs));
    expect(new Set(keys).size).toBe(3);
    expect(renderInputsKey(timeStep({ a: ["1", "2"] }))).not.toBe(renderInputsKey(timeStep({ a: ["12"] })));
  });

  it("refuses data it cannot key exactly", () => {
    class Slot {
      constructor(readonly value: string) {}
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    let deep: unknown = "bottom";
    for (let i = 0; i < 40; i++) deep = { deep };
    const refused: Array<Record<string, unknown>> = [
      { held: Promise.resolve("2026-12-07T10:00:00") },
      { held: new Map() },
      { held: new Set() },
      { held: new Slot("x") },
      { held: () => "x" },
      { held: Symbol("x") },
      { held: new Array(3) },
      { held: /x/ },
      { held: new URL("http://x.example") },
      cycle,
      { deep },
      { held: "x".repeat(600 * 1024) },
      { held: new Array<number>(600 * 1024).fill(7) },
    ];
    for (const data of refused) expect(renderInputsKey(timeStep(data))).toBeNull();
  });
});

function entryContext({
  leaf = "routes/appointment/time",
  optIn = true,
  actionData = null as unknown,
  errors = null as unknown,
} = {}): EntryContext {
  return {
    staticHandlerContext: {
      loaderData: timeStep().loaderData,
      actionData,
      errors,
      matches: [{ route: { id: "root" } }, { route: { id: leaf } }],
    },
    routeModules: {
      root: { default: () => null },
      [leaf]: { default: () => null, handle: optIn ? { renderMemo: true } : { skipTo: "step" } },
    },
  } as unknown as EntryContext;
}

describe("renderMemoKey", () => {
  const get = new Request("http://shop.example/appointment/time");

  it("keys a GET answered 200 by a route that opted in", () => {
    const key = renderMemoKey(get, 200, entryContext(), false);
    expect(key).toBe(renderInputsKey(timeStep()));
    expect(renderMemoKey(get, 200, entryContext(), true)).not.toBe(key);
    // The router answers a HEAD with no body and leaves the page unread: nothing to keep.
    expect(renderMemoKey(new Request(get.url, { method: "HEAD" }), 200, entryContext(), false)).toBeNull();
  });

  it("asks the page's own route: a root or layout that opted in opts no page in", () => {
    const context = entryContext({ optIn: false });
    (context.routeModules.root as { handle?: unknown }).handle = { renderMemo: true };
    expect(renderMemoKey(get, 200, context, false)).toBeNull();
  });

  it("renders anew a route that did not opt in, an action's answer, an error or another status", () => {
    expect(renderMemoKey(get, 200, entryContext({ optIn: false }), false)).toBeNull();
    expect(
      renderMemoKey(
        new Request(get.url, { method: "POST", body: "slot=x" }),
        200,
        entryContext({ actionData: { "routes/appointment/time": { ok: true } } }),
        false,
      ),
    ).toBeNull();
    expect(
      renderMemoKey(get, 200, entryContext({ errors: { "routes/appointment/time": new Error("x") } }), false),
    ).toBeNull();
    expect(renderMemoKey(get, 400, entryContext(), false)).toBeNull();
    expect(renderMemoKey(get, 503, entryContext(), false)).toBeNull();
  });
});

describe("createRenderMemo", () => {
  const page = (nonce: string, body = "times") =>
    Buffer.from(
      `<!doctype html><script nonce="${nonce}">go()</script><p>${body} · ✦</p><script nonce="${nonce}" src="/a.js"></script>`,
    );

  it("serves a kept page with the asking request's nonce in place of the one it was made with", () => {
    const memo = createRenderMemo({ maxBytes: 1024 * 1024, ttlMs: 60_000 });
    expect(memo.get("k", "n2")).toBeUndefined();
    memo.keep("k", page("nonceOne+/="), "nonceOne+/=");
    expect(memo.get("k", "nonceTwo")?.toString()).toBe(page("nonceTwo").toString());
    expect(memo.get("k", "nonceThree")?.toString()).toBe(page("nonceThree").toString());
    expect(memo.stats()).toMatchObject({ pages: 1, hits: 2, misses: 1 });
  });

  it("keeps a page without a nonce as it is, and none made with an empty nonce", () => {
    const memo = createRenderMemo({ maxBytes: 1024 * 1024, ttlMs: 60_000 });
    memo.keep("plain", Buffer.from("<p>no scripts</p>"), "n1");
    expect(memo.get("plain", "n2")?.toString()).toBe("<p>no scripts</p>");
    memo.keep("empty", Buffer.from("<p>x</p>"), "");
    expect(memo.get("empty", "n2")).toBeUndefined();
  });

  it("holds a copy: changing the buffer it was given changes nothing kept", () => {
    const memo = createRenderMemo({ maxBytes: 1024 * 1024, ttlMs: 60_000 });
    const html = page("n1");
    memo.keep("k", html, "n1");
    html.fill(0);
    expect(memo.get("k", "n2")?.toString()).toBe(page("n2").toString());
  });

  it("keeps at most its bytes, the least recently used going first, and no page over a quarter of them", () => {
    const memo = createRenderMemo({ maxBytes: 3500, ttlMs: 60_000 });
    const smallPage = (n: number) => Buffer.from(`<p>${String(n).repeat(800)}</p>`);
    memo.keep("a", smallPage(1), "n");
    memo.keep("b", smallPage(2), "n");
    memo.keep("c", smallPage(3), "n");
    memo.get("a", "n");
    memo.keep("d", smallPage(4), "n");
    expect(memo.get("b", "n")).toBeUndefined();
    expect(memo.get("a", "n")).toBeDefined();
    expect(memo.stats().bytes).toBeLessThanOrEqual(3500);
    memo.keep("big", Buffer.from("x".repeat(900)), "n");
    expect(memo.get("big", "n")).toBeUndefined();
  });

  it("drops a page once it is older than its time to live", () => {
    let now = 1_000;
    const memo = createRenderMemo({ maxBytes: 1024 * 1024, ttlMs: 60_000, now: () => now });
    memo.keep("k", page("n1"), "n1");
    now += 59_000;
    expect(memo.get("k", "n2")).toBeDefined();
    now += 2_000;
    expect(memo.get("k", "n2")).toBeUndefined();
  });
});
