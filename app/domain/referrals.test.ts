import { describe, expect, it } from "vitest";
import { REFERRAL_CODE } from "./attribution";
import {
  isReferralTreatment,
  makeReferralCode,
  REFERRAL_FRIEND_PRICE,
  REFERRAL_LIST_PRICE,
  REFERRAL_MESSAGES,
  REFERRAL_REWARD_POINTS,
  referralCredit,
  referralPointsStatus,
  referralPointsWords,
  referralRefusal,
  referralTally,
  shareLinks,
} from "./referrals";

const UNAMBIGUOUS = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
/** Bytes that are all `value`. */
const bytes = (value: number) => (size: number) => new Uint8Array(size).fill(value);
/** These bytes, in order. */
const these =
  (...values: number[]) =>
  (size: number) =>
    Uint8Array.from(values.slice(0, size));

describe("the programme's numbers", () => {
  it("is a $50 facial instead of $275, and 5,000 points to the referrer", () => {
    expect(REFERRAL_FRIEND_PRICE).toBe(5000);
    expect(REFERRAL_LIST_PRICE).toBe(27500);
    expect(REFERRAL_REWARD_POINTS).toBe(5000);
  });
});

describe("makeReferralCode", () => {
  it("is the first name's letters, a dash and four characters", () => {
    expect(makeReferralCode("Mia", bytes(0))).toBe("MIA-2222");
  });

  it("asks for four random bytes", () => {
    const sizes: number[] = [];
    makeReferralCode("Mia", (size) => {
      sizes.push(size);
      return new Uint8Array(size);
    });
    expect(sizes).toEqual([4]);
  });

  it("maps each byte onto the unambiguous alphabet", () => {
    expect(makeReferralCode("Mia", these(0, 1, 30, 31))).toBe("MIA-23Z2");
    expect(makeReferralCode("Mia", these(8, 9, 255, 62))).toBe("MIA-AB92");
  });

  it("strips accents: Zoë is ZOE", () => {
    expect(makeReferralCode("Zoë", bytes(0))).toBe("ZOE-2222");
    expect(makeReferralCode("José", bytes(0))).toBe("JOSE-2222");
    expect(makeReferralCode("Øyvind", bytes(0))).toBe("YVIND-2222");
  });

  it("keeps only letters: spaces, hyphens, apostrophes and digits go", () => {
    expect(makeReferralCode("Mary-Jo", bytes(0))).toBe("MARYJO-2222");
    expect(makeReferralCode("D'Arcy", bytes(0))).toBe("DARCY-2222");
    expect(makeReferralCode(" ann 2 ", bytes(0))).toBe("ANN-2222");
  });

  it("takes at most 6 letters", () => {
    expect(makeReferralCode("Alexandria", bytes(0))).toBe("ALEXAN-2222");
    expect(makeReferralCode("Robert", bytes(0))).toBe("ROBERT-2222");
  });

  it("is FRIEND for a name with no letters a code can carry", () => {
    for (const name of ["", "   ", "李", "李小龍", "123", "-'", "Дмитрий"])
      expect(makeReferralCode(name, bytes(0))).toBe("FRIEND-2222");
  });

  it("always matches the referral code pattern, over every byte value", () => {
    for (const name of ["Mia", "Zoë", "李", "", "Alexandria", "Mary-Jo"]) {
      for (let b = 0; b < 256; b++) {
        const code = makeReferralCode(name, these(b, (b + 1) % 256, (b * 7) % 256, 255 - b));
        expect(code).toMatch(REFERRAL_CODE);
      }
    }
  });

  it("uses only the unambiguous alphabet in its tail, and every character of it", () => {
    const seen = new Set<string>();
    for (let b = 0; b < 256; b++) {
      const tail = makeReferralCode("Mia", bytes(b)).split("-")[1];
      expect(tail).toHaveLength(4);
      for (const c of tail) {
        expect(UNAMBIGUOUS).toContain(c);
        seen.add(c);
      }
    }
    expect([...seen].sort().join("")).toBe(UNAMBIGUOUS);
    for (const ambiguous of ["0", "O", "1", "I", "L"]) expect(seen.has(ambiguous)).toBe(false);
  });
});

describe("isReferralTreatment", () => {
  it("is the new-client signature laser facial", () => {
    expect(isReferralTreatment("Signature Laser Facial - New Client")).toBe(true);
    expect(isReferralTreatment("signature laser facial - new client")).toBe(true);
  });

  it("is not the returning facial nor another treatment", () => {
    for (const name of [
      "Signature Laser Facial",
      "Glow Peel",
      "Laser Hair Removal",
      "Glow Peel - New Client",
      "Laser Hair Removal - New Client",
      "Consultation - New Client",
      "",
    ]) {
      expect(isReferralTreatment(name)).toBe(false);
    }
  });
});

describe("referralRefusal", () => {
  const ok = {
    known: true,
    ownerEmail: "mia@example.com",
    friendEmail: "zoe@example.com",
    alreadyReferred: false,
    friendIsNewClient: true,
  };

  it("lets a new friend use a known code", () => {
    expect(referralRefusal(ok)).toBeNull();
  });

  it("refuses an unknown code", () => {
    expect(referralRefusal({ ...ok, known: false })).toBe("unknown");
  });

  it("refuses the owner's own code, whatever the email's case and spaces", () => {
    expect(referralRefusal({ ...ok, friendEmail: "mia@example.com" })).toBe("own");
    expect(referralRefusal({ ...ok, friendEmail: "  MIA@Example.COM " })).toBe("own");
    expect(referralRefusal({ ...ok, ownerEmail: " Mia@EXAMPLE.com", friendEmail: "mia@example.com" })).toBe("own");
  });

  it("does not call a code its owner's when either email is missing", () => {
    expect(referralRefusal({ ...ok, ownerEmail: null, friendEmail: "mia@example.com" })).toBeNull();
    expect(referralRefusal({ ...ok, friendEmail: null })).toBeNull();
    expect(referralRefusal({ ...ok, ownerEmail: "", friendEmail: "" })).toBeNull();
  });

  it("refuses an email already referred", () => {
    expect(referralRefusal({ ...ok, alreadyReferred: true })).toBe("alreadyReferred");
  });

  it("refuses a friend who is not a new client", () => {
    expect(referralRefusal({ ...ok, friendIsNewClient: false })).toBe("notNew");
  });

  it("checks unknown first, then own, then already referred, then not new", () => {
    const all = {
      known: false,
      ownerEmail: "mia@example.com",
      friendEmail: "MIA@example.com",
      alreadyReferred: true,
      friendIsNewClient: false,
    };
    expect(referralRefusal(all)).toBe("unknown");
    expect(referralRefusal({ ...all, known: true })).toBe("own");
    expect(referralRefusal({ ...all, known: true, friendEmail: "zoe@example.com" })).toBe("alreadyReferred");
    expect(referralRefusal({ ...all, known: true, friendEmail: "zoe@example.com", alreadyReferred: false })).toBe(
      "notNew",
    );
  });

  it("has a message for every refusal", () => {
    expect(Object.keys(REFERRAL_MESSAGES).sort()).toEqual(["alreadyReferred", "notNew", "own", "unknown"]);
    for (const message of Object.values(REFERRAL_MESSAGES)) expect(message.length).toBeGreaterThan(0);
  });
});

describe("referralTally", () => {
  it("is zero for no referrals", () => {
    expect(referralTally([])).toEqual({ referred: 0, rewarded: 0, points: 0 });
  });

  it("counts every friend, and points only for rewarded ones", () => {
    expect(
      referralTally([
        { state: "registered", rewardPoints: 5000 },
        { state: "rewarded", rewardPoints: 5000 },
        { state: "rewarded", rewardPoints: 2500 },
        { state: "registered", rewardPoints: 0 },
      ]),
    ).toEqual({ referred: 4, rewarded: 2, points: 7500 });
  });

  it("earns nothing for registered friends", () => {
    expect(referralTally([{ state: "registered", rewardPoints: 5000 }])).toEqual({
      referred: 1,
      rewarded: 0,
      points: 0,
    });
  });
});

describe("shareLinks", () => {
  const url = "https://glow.example.com/r/MIA-7K3Q?utm=share&x=1";
  const links = shareLinks({ firstName: "Mia", url });

  it("says the offer and carries the url in the message", () => {
    expect(links.message).toContain(url);
    expect(links.message).toContain("$50 instead of $275");
  });

  it("is a mailto link with an encoded subject and body", () => {
    expect(links.email.startsWith("mailto:?subject=")).toBe(true);
    const [, query] = links.email.split("?");
    const parts = query.split("&");
    expect(parts).toHaveLength(2);
    expect(parts[1].startsWith("body=")).toBe(true);
    expect(links.email).not.toContain(" ");
    expect(links.email).toContain(encodeURIComponent(url));
    expect(decodeURIComponent(parts[0].slice("subject=".length))).toBe("Mia sent you $225 off your first laser facial");
    expect(decodeURIComponent(parts[1].slice("body=".length))).toBe(links.message);
  });

  it("is an sms link with an encoded body", () => {
    expect(links.sms.startsWith("sms:?&body=")).toBe(true);
    expect(links.sms).not.toContain(" ");
    expect(links.sms).toContain(encodeURIComponent(url));
    expect(decodeURIComponent(links.sms.slice("sms:?&body=".length))).toBe(links.message);
  });

  it("keeps a name with & and ? inside the subject", () => {
    const odd = shareLinks({ firstName: "A&B?=C", url });
    const subject = odd.email.slice("mailto:?subject=".length, odd.email.indexOf("&body="));
    expect(decodeURIComponent(subject)).toBe("A&B?=C sent you $225 off your first laser facial");
    expect(new URLSearchParams(odd.email.slice("mailto:?".length)).get("body")).toBe(odd.message);
  });
});

describe("where a referrer's points are", () => {
  const rewarded = (rewardPoints: number, creditSentAt: number | null) => ({
    state: "rewarded" as const,
    rewardPoints,
    creditSentAt,
  });

  it("a reward's points are sent once the automation took them, waiting before; a friend not rewarded has none", () => {
    expect(referralCredit(rewarded(5000, 10))).toBe("sent");
    expect(referralCredit(rewarded(5000, null))).toBe("waiting");
    expect(referralCredit({ state: "registered", creditSentAt: null })).toBeNull();
  });

  it("splits the points earned into sent and waiting, counting no friend who was not rewarded", () => {
    expect(referralPointsStatus([])).toEqual({ earned: 0, sent: 0, waiting: 0 });
    expect(
      referralPointsStatus([
        rewarded(5000, 10),
        rewarded(5000, null),
        rewarded(2500, null),
        { state: "registered", rewardPoints: 0, creditSentAt: null },
      ]),
    ).toEqual({
      earned: 12_500,
      sent: 5000,
      waiting: 7500,
    });
  });

  it("never says points earned here are in the balance, and says why the waiting ones wait", () => {
    const nobody = referralPointsWords({ earned: 5000, sent: 0, waiting: 5000, creditedBy: "nobody", balance: 0 });
    expect(nobody).toEqual([
      "Your loyalty balance at our clinics today: 0 points.",
      "5,000 points waiting to be added to your balance: our clinic system has no way for this website to add points, so the front desk adds them: show this page at your next visit. They are not in your balance yet.",
    ]);
    const automation = referralPointsWords({
      earned: 10_000,
      sent: 5000,
      waiting: 5000,
      creditedBy: "automation",
      balance: 1,
    });
    expect(automation[0]).toBe("Your loyalty balance at our clinics today: 1 point.");
    expect(automation[1]).toBe("5,000 points sent to our loyalty programme to be added to your balance.");
    expect(automation[2]).toMatch(
      /^5,000 points waiting to be added to your balance: we send them .* They are not in your balance yet\.$/,
    );
    expect(referralPointsWords({ earned: 0, sent: 0, waiting: 0, creditedBy: "nobody", balance: null })).toEqual([]);
    for (const words of [...nobody, ...automation]) expect(words).not.toMatch(/(are|is) in your balance/);
  });
});
