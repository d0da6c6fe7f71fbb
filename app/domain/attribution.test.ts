import { describe, expect, it } from "vitest";
import {
  ATTRIBUTION_WINDOW_DAYS,
  ATTRIBUTION_WINDOW_MS,
  attributionFromUrl,
  clickExpired,
  guestTags,
  isReferralCode,
  normalizeReferralCode,
  readAttribution,
  REFERRAL_CODE,
  TAG_PAYMENT,
  TAG_PROFILE,
  type VisitAttribution,
} from "./attribution";
import { BASE_TAGS } from "./guest";

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const url = (query: Record<string, string>) => new URLSearchParams(query);
const from = (query: Record<string, string>, current?: VisitAttribution, now = NOW) =>
  attributionFromUrl(url(query), now, current);

describe("attributionFromUrl", () => {
  it("reads every parameter by the earlier client's names", () => {
    expect(
      from({ partnerType: "acme", irclickid: "abc.DEF_1~-", landingPageTag: "Spring Sale", ref: "mia-7k3q" }),
    ).toEqual({
      partner: "ACME",
      click: { id: "abc.DEF_1~-", at: NOW },
      tag: "Spring Sale",
      ref: "MIA-7K3Q",
    });
  });

  it("keeps partnerType upper-cased and trimmed", () => {
    expect(from({ partnerType: "  Acme_Partner-2 " })).toEqual({ partner: "ACME_PARTNER-2" });
    expect(from({ partnerType: "ACME" })).toEqual({ partner: "ACME" });
  });

  it("accepts a partnerType of 32 characters but ignores one of 33", () => {
    expect(from({ partnerType: "a".repeat(32) })).toEqual({ partner: "A".repeat(32) });
    expect(from({ partnerType: "a".repeat(33) })).toBeNull();
  });

  it("ignores a partnerType with odd characters", () => {
    for (const partner of ["bad value!", "a b", "acme.com", "<script>", "acme/1", "é"])
      expect(from({ partnerType: partner })).toBeNull();
  });

  it("accepts a click id of 128 characters but ignores one of 129", () => {
    expect(from({ irclickid: "x".repeat(128) })).toEqual({ click: { id: "x".repeat(128), at: NOW } });
    expect(from({ irclickid: "x".repeat(129) })).toBeNull();
  });

  it("ignores a click id with odd characters", () => {
    for (const id of ["abc<def", "abc def", "abc/def", 'abc"', "a+b", "a%3Cb"])
      expect(from({ irclickid: id })).toBeNull();
  });

  it("accepts a tag of letters, digits, spaces, _ and - up to 40 characters, starting with a letter or digit", () => {
    expect(from({ landingPageTag: "Spring_Sale-2025 LA" })).toEqual({ tag: "Spring_Sale-2025 LA" });
    expect(from({ landingPageTag: "t".repeat(40) })).toEqual({ tag: "t".repeat(40) });
    expect(from({ landingPageTag: "t".repeat(41) })).toBeNull();
  });

  it("ignores a tag with odd characters", () => {
    for (const tag of ["spring/sale", "-spring", "_spring", "spring!", "<b>", "a.b"])
      expect(from({ landingPageTag: tag })).toBeNull();
  });

  it("trims a tag before checking it", () => {
    expect(from({ landingPageTag: "  Spring  " })).toEqual({ tag: "Spring" });
  });

  it("accepts ref only in code shape, trimmed and upper-cased", () => {
    expect(from({ ref: "MIA-7K3Q" })).toEqual({ ref: "MIA-7K3Q" });
    expect(from({ ref: " mia-7k3q " })).toEqual({ ref: "MIA-7K3Q" });
    for (const ref of [
      "MIA7K3Q",
      "MIA-7K3",
      "MIA-7K3QQ",
      "MIA-0K3Q",
      "MIA-1K3Q",
      "MIA-IK3Q",
      "MIA-OK3Q",
      "M1A-7K3Q",
      "-7K3Q",
      "ABCDEFGHIJK-7K3Q",
      "friend",
      "",
    ]) {
      expect(from({ ref })).toBeNull();
    }
  });

  it("returns null when the URL has nothing usable", () => {
    expect(from({})).toBeNull();
    expect(from({ utm_source: "google" })).toBeNull();
    expect(from({ partnerType: "", irclickid: "   ", landingPageTag: "", ref: "" })).toBeNull();
    expect(
      from({ partnerType: "bad value!", irclickid: "a<b", landingPageTag: "a/b", ref: "nope" }, { partner: "OLD" }),
    ).toBeNull();
  });

  it("keeps a known click's original timestamp when the same id comes again", () => {
    const current: VisitAttribution = { click: { id: "abc", at: NOW - 1000 } };
    expect(from({ irclickid: "abc" }, current)).toEqual({ click: { id: "abc", at: NOW - 1000 } });
    expect(from({ irclickid: " abc " }, current)).toEqual({ click: { id: "abc", at: NOW - 1000 } });
  });

  it("gives a new click id the current time", () => {
    const current: VisitAttribution = { click: { id: "abc", at: NOW - 1000 } };
    expect(from({ irclickid: "xyz" }, current)).toEqual({ click: { id: "xyz", at: NOW } });
    expect(from({ irclickid: "ABC" }, current)).toEqual({ click: { id: "ABC", at: NOW } });
  });

  it("merges over the current attribution: new values replace, missing or unusable ones leave it", () => {
    const current: VisitAttribution = { ref: "MIA-7K3Q", partner: "OLD", click: { id: "abc", at: 1 }, tag: "Old Tag" };
    expect(from({ partnerType: "new" }, current)).toEqual({ ...current, partner: "NEW" });
    expect(from({ landingPageTag: "New Tag", partnerType: "bad value!", ref: "nope" }, current)).toEqual({
      ...current,
      tag: "New Tag",
    });
    expect(from({ ref: "zoe-abcd" }, current)).toEqual({ ...current, ref: "ZOE-ABCD" });
    expect(from({ irclickid: "def" }, current)).toEqual({ ...current, click: { id: "def", at: NOW } });
  });

  it("does not change the current attribution it is given", () => {
    const current: VisitAttribution = { partner: "OLD", click: { id: "abc", at: 1 } };
    const copy = structuredClone(current);
    from({ partnerType: "new", irclickid: "def" }, current);
    expect(current).toEqual(copy);
  });

  it("reads the first value of a repeated parameter", () => {
    expect(attributionFromUrl(new URLSearchParams("partnerType=one&partnerType=two"), NOW, undefined)).toEqual({
      partner: "ONE",
    });
  });
});

describe("readAttribution", () => {
  it("keeps every field of the right shape", () => {
    const value = { ref: "MIA-7K3Q", partner: "ACME", click: { id: "abc", at: NOW }, tag: "Spring Sale" };
    expect(readAttribution(value)).toEqual(value);
  });

  it("drops unknown fields", () => {
    expect(readAttribution({ partner: "ACME", extra: 1 })).toEqual({ partner: "ACME" });
  });

  it("drops each field of the wrong shape and keeps the rest", () => {
    expect(readAttribution({ ref: "mia-7k3q", partner: "ACME" })).toEqual({ partner: "ACME" });
    expect(readAttribution({ ref: 5, partner: "bad value!", tag: "Spring" })).toEqual({ tag: "Spring" });
    expect(readAttribution({ partner: "a".repeat(33), tag: "a/b", ref: "MIA-7K3Q" })).toEqual({ ref: "MIA-7K3Q" });
    expect(readAttribution({ click: { id: "a<b", at: 1 }, partner: "ACME" })).toEqual({ partner: "ACME" });
    expect(readAttribution({ click: { id: "abc", at: -1 } })).toEqual({});
    expect(readAttribution({ click: { id: "abc", at: 1.5 } })).toEqual({});
    expect(readAttribution({ click: { id: "abc", at: "1" } })).toEqual({});
    expect(readAttribution({ click: { id: "abc" } })).toEqual({});
    expect(readAttribution({ click: "abc" })).toEqual({});
    expect(readAttribution({ click: null, tag: null, ref: null, partner: null })).toEqual({});
  });

  it("leaves no key for a dropped field", () => {
    expect(Object.keys(readAttribution({ ref: 5, partner: "ACME", click: "x", tag: 1 }))).toEqual(["partner"]);
  });

  it("never throws on garbage: null, undefined, arrays, strings, numbers, booleans", () => {
    for (const value of [
      null,
      undefined,
      [],
      [1, 2],
      ["MIA-7K3Q"],
      "",
      "MIA-7K3Q",
      "{}",
      0,
      42,
      Number.NaN,
      true,
      false,
      new Date(),
      new Map(),
      () => 1,
      Symbol("x"),
    ]) {
      expect(() => readAttribution(value)).not.toThrow();
      expect(readAttribution(value)).toEqual({});
    }
  });

  it("reads back what attributionFromUrl wrote", () => {
    const written = from({ partnerType: "acme", irclickid: "abc", landingPageTag: "Spring", ref: "mia-7k3q" });
    expect(readAttribution(JSON.parse(JSON.stringify(written)))).toEqual(written);
  });
});

describe("clickExpired", () => {
  it("is a 30-day window", () => {
    expect(ATTRIBUTION_WINDOW_DAYS).toBe(30);
    expect(ATTRIBUTION_WINDOW_MS).toBe(30 * 24 * 60 * 60 * 1000);
  });

  it("has not expired at exactly 30 days", () => {
    expect(clickExpired(NOW, NOW + ATTRIBUTION_WINDOW_MS)).toBe(false);
  });

  it("has expired at 30 days and 1 ms", () => {
    expect(clickExpired(NOW, NOW + ATTRIBUTION_WINDOW_MS + 1)).toBe(true);
  });

  it("has not expired right after the click", () => {
    expect(clickExpired(NOW, NOW)).toBe(false);
    expect(clickExpired(NOW, NOW + 1)).toBe(false);
  });
});

describe("guestTags", () => {
  it("always starts with Booking Lead and NBF", () => {
    expect(BASE_TAGS).toEqual(["Booking Lead", "NBF"]);
    for (const stage of ["profile", "payment"] as const) {
      for (const landingPageTag of [undefined, "", "Spring", "NBF", "Booking Lead", TAG_PROFILE, TAG_PAYMENT]) {
        expect(guestTags({ landingPageTag, stage }).slice(0, 2)).toEqual(["Booking Lead", "NBF"]);
      }
    }
  });

  it("adds NBF-PROFILE for a registration and NBF-PAYMENT for a booking", () => {
    expect(guestTags({ stage: "profile" })).toEqual(["Booking Lead", "NBF", "NBF-PROFILE"]);
    expect(guestTags({ stage: "payment" })).toEqual(["Booking Lead", "NBF", "NBF-PAYMENT"]);
  });

  it("puts the landing tag first, then the stage tag", () => {
    expect(guestTags({ landingPageTag: "Spring", stage: "profile" })).toEqual([
      "Booking Lead",
      "NBF",
      "Spring",
      "NBF-PROFILE",
    ]);
    expect(guestTags({ landingPageTag: "Spring", stage: "payment" })).toEqual([
      "Booking Lead",
      "NBF",
      "Spring",
      "NBF-PAYMENT",
    ]);
  });

  it("ignores an empty landing tag", () => {
    expect(guestTags({ landingPageTag: "", stage: "payment" })).toEqual(["Booking Lead", "NBF", "NBF-PAYMENT"]);
  });

  it("does not repeat a landing tag that is a base tag", () => {
    expect(guestTags({ landingPageTag: "NBF", stage: "profile" })).toEqual(["Booking Lead", "NBF", "NBF-PROFILE"]);
    expect(guestTags({ landingPageTag: "Booking Lead", stage: "payment" })).toEqual([
      "Booking Lead",
      "NBF",
      "NBF-PAYMENT",
    ]);
  });

  it("does not repeat a landing tag that is the stage tag", () => {
    expect(guestTags({ landingPageTag: "NBF-PROFILE", stage: "profile" })).toEqual([
      "Booking Lead",
      "NBF",
      "NBF-PROFILE",
    ]);
    expect(guestTags({ landingPageTag: "NBF-PAYMENT", stage: "payment" })).toEqual([
      "Booking Lead",
      "NBF",
      "NBF-PAYMENT",
    ]);
  });

  it("keeps a landing tag that is the other stage's tag", () => {
    expect(guestTags({ landingPageTag: "NBF-PAYMENT", stage: "profile" })).toEqual([
      "Booking Lead",
      "NBF",
      "NBF-PAYMENT",
      "NBF-PROFILE",
    ]);
  });

  it("has at most 4 tags and none twice", () => {
    for (const stage of ["profile", "payment"] as const) {
      for (const landingPageTag of [undefined, "", "Spring", "NBF", "Booking Lead", TAG_PROFILE, TAG_PAYMENT]) {
        const tags = guestTags({ landingPageTag, stage });
        expect(tags.length).toBeLessThanOrEqual(4);
        expect(new Set(tags).size).toBe(tags.length);
        expect(tags).toContain(stage === "profile" ? TAG_PROFILE : TAG_PAYMENT);
      }
    }
  });
});

describe("referral code shape", () => {
  it("normalizes by trimming and upper-casing", () => {
    expect(normalizeReferralCode("  mia-7k3q\n")).toBe("MIA-7K3Q");
    expect(normalizeReferralCode("MIA-7K3Q")).toBe("MIA-7K3Q");
  });

  it("accepts 1 to 10 letters, a dash and 4 unambiguous characters, any case and spacing", () => {
    for (const code of ["MIA-7K3Q", "mia-7k3q", " Mia-7K3Q ", "A-2345", "ABCDEFGHIJ-ZZZZ", "FRIEND-9ABC"])
      expect(isReferralCode(code)).toBe(true);
  });

  it("refuses anything else", () => {
    for (const code of [
      "",
      "MIA",
      "MIA-",
      "MIA7K3Q",
      "-7K3Q",
      "ABCDEFGHIJK-7K3Q",
      "MIA-7K3",
      "MIA-7K3QX",
      "MIA-0K3Q",
      "MIA-1K3Q",
      "MIA-OK3Q",
      "MIA-IK3Q",
      "MI4-7K3Q",
      "MIA 7K3Q",
      "MIA--7K3Q",
      "ZOË-7K3Q",
      "MIA-7K3Q-",
    ]) {
      expect(isReferralCode(code)).toBe(false);
    }
  });

  it("is anchored: the pattern never matches a code inside a longer string", () => {
    expect(REFERRAL_CODE.test("xMIA-7K3Q")).toBe(false);
    expect(REFERRAL_CODE.test("MIA-7K3Qx")).toBe(false);
  });
});
