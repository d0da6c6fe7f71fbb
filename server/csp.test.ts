import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, SPAM_TRAP_STYLE } from "./csp.server";
import { parseEnv } from "./env.server";
import { browserReportingOrigins } from "./observability/error-reporter.server";

const connectSrc = (policy: string) => policy.split("; ").find((directive) => directive.startsWith("connect-src "));

describe("the page's connect-src", () => {
  it("is the site itself when error reporting is off", () => {
    const origins = browserReportingOrigins(parseEnv({ NODE_ENV: "test" }));
    expect(
      connectSrc(contentSecurityPolicy([], { development: false, formActionOrigins: [], connectOrigins: origins })),
    ).toBe("connect-src 'self'");
    expect(connectSrc(contentSecurityPolicy([], { development: true, formActionOrigins: [] }))).toBe(
      "connect-src 'self' ws:",
    );
  });

  it("lets the browser post its error reports to the DSN's host, and nowhere else, when a DSN is set", () => {
    const origins = browserReportingOrigins(
      parseEnv({ NODE_ENV: "test", SENTRY_DSN: "https://public@o123.ingest.sentry.io/456" }),
    );
    expect(origins).toEqual(["https://o123.ingest.sentry.io"]);
    expect(
      connectSrc(contentSecurityPolicy([], { development: false, formActionOrigins: [], connectOrigins: origins })),
    ).toBe("connect-src 'self' https://o123.ingest.sentry.io");
  });
});

describe("the page's style-src", () => {
  it("allows the honeypot's own style element by its hash, and no other inline style, in production", async () => {
    const { createElement } = await import("react");
    const { renderToStaticMarkup } = await import("react-dom/server");
    const { HoneypotInputs } = await import("remix-utils/honeypot/react");
    const html = renderToStaticMarkup(createElement(HoneypotInputs, { className: "honeypot" }));
    const style = /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1];
    expect(style).toBe(SPAM_TRAP_STYLE);
    const hash = `'sha256-${createHash("sha256").update(style!, "utf8").digest("base64")}'`;
    const styleSrc = contentSecurityPolicy([], { development: false, formActionOrigins: [] })
      .split("; ")
      .find((directive) => directive.startsWith("style-src "));
    expect(styleSrc).toBe(`style-src 'self' ${hash}`);
  });
});

describe("the page's img-src", () => {
  const imgSrc = (policy: string) => policy.split("; ").find((directive) => directive.startsWith("img-src "));

  it("is the site itself with no image host configured", () => {
    const env = parseEnv({ NODE_ENV: "test" });
    expect(env.IMAGE_ORIGINS).toEqual([]);
    expect(imgSrc(contentSecurityPolicy([], { development: false, formActionOrigins: [] }))).toBe(
      "img-src 'self' data:",
    );
  });

  it("adds the configured image hosts, as origins, and takes https ones only", () => {
    const env = parseEnv({
      NODE_ENV: "test",
      IMAGE_ORIGINS: "https://images.example.com/path/, https://cdn.example.net",
    });
    expect(env.IMAGE_ORIGINS).toEqual(["https://images.example.com", "https://cdn.example.net"]);
    expect(
      imgSrc(contentSecurityPolicy([], { development: false, formActionOrigins: [], imageOrigins: env.IMAGE_ORIGINS })),
    ).toBe("img-src 'self' data: https://images.example.com https://cdn.example.net");
    expect(() => parseEnv({ NODE_ENV: "test", IMAGE_ORIGINS: "http://images.example.com" })).toThrow(/IMAGE_ORIGINS/);
  });
});
