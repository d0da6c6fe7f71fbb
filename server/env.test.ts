import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";
import { SEED_AVAILABILITY_GUEST } from "./spa-sandbox/seed-data";

const AVAILABILITY_GUEST = "0b6c2f7e-1d2a-4c3b-9e8f-7a6b5c4d3e2f";

describe("configuration", () => {
  it("runs on the embedded defaults with no environment at all", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 3000, SPA_AUTH: "apikey", DATA_DIR: "data", CATALOG_TTL_SECONDS: 300 });
    expect(env.SPA_BASE_URL).toBeUndefined();
    expect(env.FIRESTORE_PROJECT_ID).toBeUndefined();
    expect(env.GOOGLE_MAPS_API_KEY).toBeUndefined();
  });

  it("names every bad variable in one error", () => {
    try {
      parseEnv({ PORT: "http", SPA_BASE_URL: "not a url", SESSION_SECRETS: "short", FIRESTORE_PROJECT_ID: "p" });
      throw new Error("expected an error");
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const message = (error as EnvError).message;
      for (const name of ["PORT", "SPA_BASE_URL", "SESSION_SECRETS", "FIRESTORE_CREDENTIALS_JSON"])
        expect(message).toContain(name);
    }
  });

  it("requires credentials for the real back end", () => {
    expect(() => parseEnv({ SPA_BASE_URL: "https://api.zenoti.com", SESSION_SECRETS: "x".repeat(32) })).toThrow(
      /SPA_API_KEY/,
    );
    expect(() =>
      parseEnv({ SPA_BASE_URL: "https://api.zenoti.com", SPA_AUTH: "token", SESSION_SECRETS: "x".repeat(32) }),
    ).toThrow(/SPA_USERNAME/);
    const env = parseEnv({
      SPA_BASE_URL: "https://api.zenoti.com",
      SPA_API_KEY: "key",
      SPA_AVAILABILITY_GUEST_ID: AVAILABILITY_GUEST,
      SESSION_SECRETS: `${"x".repeat(32)}, ${"y".repeat(32)}`,
      SMS_WEBHOOK_URL: "https://sms.example.com/send",
    });
    expect(env.SESSION_SECRETS).toEqual(["x".repeat(32), "y".repeat(32)]);
    expect(env.SPA_AVAILABILITY_GUEST_ID).toBe(AVAILABILITY_GUEST);
  });

  it("will not start against a real back end without the guest open times are read through", () => {
    const real = { SPA_BASE_URL: "https://api.zenoti.com", SPA_API_KEY: "key", SESSION_SECRETS: "x".repeat(32) };
    expect(() => parseEnv(real)).toThrow(/SPA_AVAILABILITY_GUEST_ID: required when SPA_BASE_URL is set/);
    expect(() => parseEnv({ ...real, SPA_AVAILABILITY_GUEST_ID: "webstore@example.com" })).toThrow(
      /must be a Zenoti guest id/,
    );
    expect(() =>
      parseEnv({ ...real, SPA_AVAILABILITY_GUEST_ID: AVAILABILITY_GUEST, SPA_REFERRAL_SOURCE_ID: "FRIEND10" }),
    ).toThrow(/SPA_REFERRAL_SOURCE_ID/);
  });

  it("reads open times through the guest the embedded sandbox seeds when there is no back end", () => {
    expect(parseEnv({}).SPA_AVAILABILITY_GUEST_ID).toBe(SEED_AVAILABILITY_GUEST.id);
  });

  it("chooses the token endpoint: legacy by default, v1 with its account name and app secret", () => {
    const token = {
      SPA_BASE_URL: "https://api.zenoti.com",
      SPA_AUTH: "token",
      SPA_USERNAME: "u",
      SPA_PASSWORD: "p",
      SPA_CLIENT_ID: "app",
      SPA_AVAILABILITY_GUEST_ID: AVAILABILITY_GUEST,
      SESSION_SECRETS: "x".repeat(32),
      SMTP_URL: "smtp://mail.example.com:587",
    };
    expect(parseEnv(token).SPA_TOKEN_ENDPOINT).toBe("legacy");
    expect(() => parseEnv({ ...token, SPA_TOKEN_ENDPOINT: "v1" })).toThrow(/SPA_ACCOUNT_NAME[\s\S]*SPA_APP_SECRET/);
    expect(() => parseEnv({ ...token, SPA_TOKEN_ENDPOINT: "v2" })).toThrow(/SPA_TOKEN_ENDPOINT/);
    const v1 = parseEnv({
      ...token,
      SPA_TOKEN_ENDPOINT: "v1",
      SPA_ACCOUNT_NAME: "glowclinic",
      SPA_APP_SECRET: "secret",
    });
    expect(v1).toMatchObject({ SPA_TOKEN_ENDPOINT: "v1", SPA_ACCOUNT_NAME: "glowclinic", SPA_APP_SECRET: "secret" });
  });

  it("has no well-known sandbox key, and keeps the outbox to this machine, by default", () => {
    const env = parseEnv({});
    expect(env.SANDBOX_API_KEY).toBeUndefined();
    expect(env).toMatchObject({ DEV_OUTBOX: true, DEV_OUTBOX_ALLOW_REMOTE: false });
    expect(() => parseEnv({ SANDBOX_API_KEY: "short" })).toThrow(/SANDBOX_API_KEY/);
  });

  it("never has the outbox with a real back end, and says so when asked for it", () => {
    const real = {
      SPA_BASE_URL: "https://api.zenoti.com",
      SPA_API_KEY: "key",
      SPA_AVAILABILITY_GUEST_ID: AVAILABILITY_GUEST,
      SESSION_SECRETS: "x".repeat(32),
      SMTP_URL: "smtp://mail.example.com:587",
    };
    expect(parseEnv(real).DEV_OUTBOX).toBe(false);
    expect(() => parseEnv({ ...real, DEV_OUTBOX: "true" })).toThrow(
      /DEV_OUTBOX: .*never available with a real back end/,
    );
  });

  it("allows the low password-hash cost only on the embedded sandbox", () => {
    expect(parseEnv({}).PASSWORD_HASH_COST).toBe("standard");
    expect(parseEnv({ PASSWORD_HASH_COST: "low" }).PASSWORD_HASH_COST).toBe("low");
    expect(() => parseEnv({ PASSWORD_HASH_COST: "weak" })).toThrow(/PASSWORD_HASH_COST/);
    expect(() =>
      parseEnv({
        SPA_BASE_URL: "https://api.zenoti.com",
        SPA_API_KEY: "k",
        SPA_AVAILABILITY_GUEST_ID: AVAILABILITY_GUEST,
        SESSION_SECRETS: "x".repeat(32),
        SMTP_URL: "smtp://mail.example:587",
        PASSWORD_HASH_COST: "low",
      }),
    ).toThrow(/PASSWORD_HASH_COST: low is for test servers/);
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ GOOGLE_MAPS_API_KEY: "", COOKIE_SECURE: "" }).GOOGLE_MAPS_API_KEY).toBeUndefined();
    expect(parseEnv({ COOKIE_SECURE: "false" }).COOKIE_SECURE).toBe(false);
  });
});

function trustProxy(value: string | undefined) {
  return parseEnv(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY;
}

function problemsOf(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
  return [];
}

describe("the recovery message's settings", () => {
  it("waits an hour and keeps quiet from 21:00 to 08:00 by default", () => {
    const env = parseEnv({});
    expect(env.RECOVERY_DELAY_MINUTES).toBe(60);
    expect(env.RECOVERY_NIGHT_HOURS).toEqual({ start: 21 * 60, end: 8 * 60 });
  });

  it("takes another delay and night, or no night at all", () => {
    const env = parseEnv({ RECOVERY_DELAY_MINUTES: "0", RECOVERY_NIGHT_HOURS: "20:30-09:00" });
    expect(env.RECOVERY_DELAY_MINUTES).toBe(0);
    expect(env.RECOVERY_NIGHT_HOURS).toEqual({ start: 20 * 60 + 30, end: 9 * 60 });
    expect(parseEnv({ RECOVERY_NIGHT_HOURS: "off" }).RECOVERY_NIGHT_HOURS).toBeNull();
  });

  it("names a bad delay or night", () => {
    expect(() => parseEnv({ RECOVERY_DELAY_MINUTES: "-5" })).toThrow(/RECOVERY_DELAY_MINUTES/);
    expect(() => parseEnv({ RECOVERY_DELAY_MINUTES: "an hour" })).toThrow(/RECOVERY_DELAY_MINUTES/);
    expect(() => parseEnv({ RECOVERY_NIGHT_HOURS: "9pm-8am" })).toThrow(/RECOVERY_NIGHT_HOURS: expected HH:MM-HH:MM/);
  });
});

describe("TRUST_PROXY", () => {
  it("trusts only a proxy on this machine (loopback) when unset or empty, not private networks", () => {
    expect(trustProxy(undefined)).toEqual(["loopback"]);
    expect(trustProxy(" ")).toEqual(["loopback"]);
  });

  it("takes the names of private ranges when they are asked for", () => {
    expect(trustProxy("loopback, linklocal, uniquelocal")).toEqual(["loopback", "linklocal", "uniquelocal"]);
  });

  it("takes a comma list of names, addresses and subnets", () => {
    expect(trustProxy("loopback, 10.0.0.0/8,192.168.1.7, fd00::/8, 172.16.0.0/255.240.0.0")).toEqual([
      "loopback",
      "10.0.0.0/8",
      "192.168.1.7",
      "fd00::/8",
      "172.16.0.0/255.240.0.0",
    ]);
  });

  it("takes a hop count and false", () => {
    expect(trustProxy("1")).toBe(1);
    expect(trustProxy("0")).toBe(0);
    expect(trustProxy("false")).toBe(false);
  });

  it.each(["true", "everything", "10.0.0.0/33", "300.1.1.1", "loopback,,uniquelocal", "1.5", "-1", "10.0.0.1/8/8"])(
    "refuses %j and names the variable",
    (value) => {
      const problems = problemsOf({ TRUST_PROXY: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^TRUST_PROXY: /);
    },
  );

  it("refuses a production start with a real back end when no one-time code could be delivered", () => {
    const real = {
      SPA_BASE_URL: "https://api.zenoti.com",
      SPA_API_KEY: "key",
      SPA_AVAILABILITY_GUEST_ID: AVAILABILITY_GUEST,
      SESSION_SECRETS: "x".repeat(32),
    };
    expect(() => parseEnv(real)).toThrow(
      /SMTP_URL or SMS_WEBHOOK_URL: required in production with a real spa back end/,
    );
    expect(() => parseEnv({ ...real, SMTP_URL: "smtp://mail.example.com:587" })).not.toThrow();
    expect(() => parseEnv({ ...real, SMS_WEBHOOK_URL: "https://sms.example.com/send" })).not.toThrow();
    // Development against a real back end, and the embedded sandbox, may run without one (the outbox).
    expect(() => parseEnv({ ...real, NODE_ENV: "development" })).not.toThrow();
    expect(() => parseEnv({})).not.toThrow();
  });

  it("takes Redis, analytics, lead webhook and error-reporting settings, all optional", () => {
    const env = parseEnv({
      REDIS_URL: "redis://127.0.0.1:6379/0",
      ANALYTICS_URL: "https://collector.example.com/batch",
      ANALYTICS_CONTACT_FIELDS: "true",
      LEAD_WEBHOOK_AUTOMATION_URL: "https://automation.example.com/lead",
      SENTRY_DSN: "https://public@sentry.example.com/1",
    });
    expect(env).toMatchObject({
      REDIS_URL: "redis://127.0.0.1:6379/0",
      ANALYTICS_CONTACT_FIELDS: true,
      LEAD_WEBHOOK_TIMEOUT_MS: 5_000,
      SENTRY_TRACES_SAMPLE_RATE: 0,
    });
    expect(parseEnv({}).ANALYTICS_CONTACT_FIELDS).toBe(false);
    expect(() => parseEnv({ REDIS_URL: "http://cache.example.com" })).toThrow(
      /REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL/,
    );
  });
});
