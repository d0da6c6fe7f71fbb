import { LRUCache } from "lru-cache";
import { createHash } from "node:crypto";
import type { EntryContext } from "react-router";

/**
 * Pages made once for what they show (decision 034). A route's page is a function of its URL and the
 * data its loaders returned: React renders nothing else (the nonce aside, which is put back per
 * request). So a page whose loaders returned exactly what they returned for an earlier request is
 * that request's page, whoever asks. The key is a digest of those inputs, never of who is asking:
 * two guests at one clinic, treatment and day share one page; a page that shows more of a guest (a
 * hold, a message, being signed in) is keyed by that too. A route opts in with
 * `handle: { renderMemo: true }` once its render (and the root's and layouts' it sits in) reads
 * nothing but its data and the URL: no clock, no randomness, no module state that changes.
 */

/** What a page was made from: the answer's status, its URL, the matched routes' data. */
export type RenderInputs = {
  url: string;
  status: number;
  /** The whole document at once (a crawler, a no-JavaScript reader) or streamed: kept apart. */
  wholeDocument: boolean;
  /** The matched routes' loader data by route id, in the order the router gave it. */
  loaderData: Record<string, unknown>;
};

/**
 * The key of the page React Router is about to render, or null when it must be rendered for this
 * request alone: not a GET, not a 200, an action's answer or an error on it, a route that has not
 * opted in, or data that cannot be keyed exactly.
 */
export function renderMemoKey(
  request: Request,
  status: number,
  routerContext: EntryContext,
  wholeDocument: boolean,
): string | null {
  // Not HEAD: the router answers it with no body and leaves the page's stream unread.
  if (request.method !== "GET" || status !== 200) return null;
  const { actionData, errors, loaderData, matches } = routerContext.staticHandlerContext;
  if (actionData || errors) return null;
  const page = matches.at(-1);
  const handle = page
    ? (routerContext.routeModules[page.route.id]?.handle as { renderMemo?: unknown } | undefined)
    : undefined;
  if (handle?.renderMemo !== true) return null;
  return renderInputsKey({ url: request.url, status, wholeDocument, loaderData });
}

/** Nested deeper than this, data is not keyed (and not kept): it is no page's usual shape. */
const MAX_DEPTH = 32;
/** Loader data past this many characters of text (each number, object and array counting one) is not kept. */
const MAX_KEY_CHARACTERS = 512 * 1024;

/**
 * The digest of a page's inputs, or null when they cannot be keyed exactly: a value that is not
 * plain data (a promise still streaming, a Map, a class instance, a function), an array with holes,
 * data nested too deeply (or in a cycle), or too much of it. Each value is written with its type and
 * its length, so no two different inputs write the same text; object keys keep their order, since a
 * page may show them in that order.
 */
export function renderInputsKey(inputs: RenderInputs): string | null {
  const head = `${inputs.wholeDocument ? "W" : "S"}${inputs.status};${inputs.url.length}:${inputs.url}`;
  const size = { characters: inputs.url.length };
  // Most pages' data is plain JSON (strings, finite numbers, booleans, null, arrays, plain objects),
  // which JSON itself writes exactly and fastest; anything else is written out value by value.
  if (isPlainJson(inputs.loaderData, 0, size)) return digest(`${head}J${JSON.stringify(inputs.loaderData)}`);
  if (size.characters > MAX_KEY_CHARACTERS) return null;
  size.characters = inputs.url.length;
  const out: string[] = [head, "E"];
  if (!write(inputs.loaderData, out, 0, size)) return null;
  return digest(out.join(""));
}

const digest = (material: string) => createHash("sha256").update(material).digest("base64url");

/**
 * Whether JSON writes this value exactly: no undefined, -0, NaN or infinity (JSON writes them as
 * nothing, 0 or null), no Date, no holes, nothing but plain objects and arrays, within the bounds.
 */
function isPlainJson(value: unknown, depth: number, size: { characters: number }): boolean {
  switch (typeof value) {
    case "string":
      size.characters += value.length;
      return size.characters <= MAX_KEY_CHARACTERS;
    case "number":
      size.characters += 1;
      return Number.isFinite(value) && !Object.is(value, -0) && size.characters <= MAX_KEY_CHARACTERS;
    case "boolean":
      return true;
    case "object": {
      if (value === null) return true;
      size.characters += 1;
      if (depth >= MAX_DEPTH || size.characters > MAX_KEY_CHARACTERS) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !isPlainJson(value[i], depth + 1, size)) return false;
        }
        return true;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) return false;
        size.characters += key.length;
        if (!isPlainJson((value as Record<string, unknown>)[key], depth + 1, size)) return false;
      }
      return true;
    }
    default:
      return false;
  }
}

function write(value: unknown, out: string[], depth: number, size: { characters: number }): boolean {
  switch (typeof value) {
    case "string":
      size.characters += value.length;
      if (size.characters > MAX_KEY_CHARACTERS) return false;
      out.push("s", String(value.length), ":", value);
      return true;
    case "number":
      size.characters += 1;
      out.push("n", Object.is(value, -0) ? "-0" : String(value), ";");
      return size.characters <= MAX_KEY_CHARACTERS;
    case "boolean":
      out.push(value ? "T" : "F");
      return true;
    case "undefined":
      out.push("u");
      return true;
    case "bigint":
      out.push("b", value.toString(), ";");
      return true;
    case "object": {
      if (value === null) {
        out.push("N");
        return true;
      }
      size.characters += 1;
      if (depth >= MAX_DEPTH || size.characters > MAX_KEY_CHARACTERS) return false;
      if (Array.isArray(value)) {
        out.push("[", String(value.length), ":");
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !write(value[i], out, depth + 1, size)) return false;
        }
        out.push("]");
        return true;
      }
      const prototype = Object.getPrototypeOf(value);
      if (prototype === Date.prototype) {
        out.push("D", String((value as Date).getTime()), ";");
        return true;
      }
      if (prototype !== Object.prototype && prototype !== null) return false;
      const keys = Object.keys(value);
      out.push("{", String(keys.length), ":");
      for (const key of keys) {
        size.characters += key.length;
        out.push(String(key.length), ":", key);
        if (!write((value as Record<string, unknown>)[key], out, depth + 1, size)) return false;
      }
      out.push("}");
      return true;
    }
    default:
      // A function or a symbol: what a render would do with it is not data.
      return false;
  }
}

/** A kept page, cut where the nonce of the request that made it stood. */
export type KeptRender = { parts: readonly Buffer[]; bytes: number };

export type RenderMemoOptions = {
  /** The most bytes of pages kept. */
  maxBytes: number;
  /**
   * How long a page is kept at most. A key is exact, so this is not for freshness: pages nobody asks
   * for leave memory, and an instance whose traffic drops gives it back.
   */
  ttlMs: number;
  /** Render every page even when one is kept, and refuse to answer when the two differ (the browser tests' servers). */
  verify?: boolean;
  /** Milliseconds from any fixed point (tests). */
  now?: () => number;
};

/**
 * The kept pages of one process (they are what this process would render itself, so nothing is
 * shared between instances): least recently used out past `maxBytes`, none older than `ttlMs`.
 */
export function createRenderMemo(options: RenderMemoOptions) {
  const pages = new LRUCache<string, KeptRender>({
    maxSize: options.maxBytes,
    sizeCalculation: (page) => page.bytes + 128,
    ttl: options.ttlMs,
    // Expired pages leave at once, not when next looked up or pushed out.
    ttlAutopurge: true,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
  let hits = 0;
  let misses = 0;
  let mismatches = 0;

  return {
    verify: options.verify ?? false,
    /** The page kept for these inputs, with this request's nonce put back. */
    get(key: string, nonce: string): Buffer<ArrayBuffer> | undefined {
      const kept = pages.get(key);
      if (!kept) {
        misses++;
        return undefined;
      }
      hits++;
      return withNonce(kept, nonce);
    },
    /** Keeps a page rendered with `nonce` (refused when the nonce is empty: it could not be put back). */
    keep(key: string, html: Buffer, nonce: string): void {
      if (!nonce) return;
      const kept = cutAtNonce(html, nonce);
      if (kept.bytes > options.maxBytes / 4) return;
      pages.set(key, kept);
    },
    /** A page rendered anew for inputs that had one kept, and the two differ: counted (verify mode). */
    countMismatch(): void {
      mismatches++;
    },
    stats: () => ({ pages: pages.size, bytes: pages.calculatedSize, hits, misses, mismatches }),
    clear: () => pages.clear(),
  };
}

export type RenderMemo = ReturnType<typeof createRenderMemo>;

function cutAtNonce(html: Buffer, nonce: string): KeptRender {
  const needle = Buffer.from(nonce, "utf8");
  const cuts: Array<[number, number]> = [];
  let from = 0;
  for (let at = html.indexOf(needle, from); at !== -1; at = html.indexOf(needle, from)) {
    cuts.push([from, at]);
    from = at + needle.length;
  }
  cuts.push([from, html.length]);
  // The page's own memory, not a view into the request's buffer or a slab shared with others.
  const bytes = cuts.reduce((sum, [start, end]) => sum + end - start, 0);
  const copy = Buffer.allocUnsafeSlow(bytes);
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [start, end] of cuts) {
    html.copy(copy, offset, start, end);
    parts.push(copy.subarray(offset, offset + end - start));
    offset += end - start;
  }
  return { parts, bytes };
}

function withNonce(kept: KeptRender, nonce: string): Buffer<ArrayBuffer> {
  const needle = Buffer.from(nonce, "utf8");
  const pieces: Buffer[] = [];
  kept.parts.forEach((part, index) => {
    if (index > 0) pieces.push(needle);
    pieces.push(part);
  });
  return Buffer.concat(pieces, kept.bytes + needle.length * (kept.parts.length - 1));
}
