import { describe, expect, it } from "vitest";
import { createTokenSigner } from "../signed-tokens.server";
import { createManageLinks } from "./manage-link.server";

const SECRETS = ["a-secret-of-at-least-thirty-two-characters!"];
const DAY = 86_400_000;
const NOW = Date.parse("2026-12-01T12:00:00Z");

/** Manage links whose clock can be moved. */
function links(secrets = SECRETS) {
  let now = NOW;
  return { links: createManageLinks(secrets, () => now), at: (ms: number) => (now = ms) };
}

describe("a manage link", () => {
  it("opens the one visit of the one guest it names, whatever the case of their ids", () => {
    const { links: manage } = links();
    const token = manage.sign("GUEST-1", "VISIT-1", NOW + 3 * DAY);
    expect(manage.verify(token)).toEqual({ guestId: "guest-1", visitId: "visit-1" });
  });

  it("is good until a week after the visit, and no longer", () => {
    const { links: manage, at } = links();
    const token = manage.sign("g", "v", NOW + 3 * DAY);
    at(NOW + 10 * DAY - 60_000);
    expect(manage.verify(token)).not.toBeNull();
    at(NOW + 10 * DAY + 1000);
    expect(manage.verify(token)).toBeNull();
  });

  it("lasts at most 180 days after it is sent, and at least a week for a visit already past", () => {
    const { links: manage, at } = links();
    const far = manage.sign("g", "v", NOW + 400 * DAY);
    at(NOW + 181 * DAY);
    expect(manage.verify(far)).toBeNull();
    at(NOW);
    const past = manage.sign("g", "v", NOW - 30 * DAY);
    at(NOW + 6 * DAY);
    expect(manage.verify(past)).not.toBeNull();
  });

  it("is refused when changed, signed with another key, or made for another kind of link", () => {
    const { links: manage } = links();
    const token = manage.sign("g", "v", NOW + DAY);
    const [body, signature] = token.split(".");
    const otherVisit = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, "base64url").toString()), v: "other" }),
    ).toString("base64url");
    expect(manage.verify(`${otherVisit}.${signature}`)).toBeNull();
    expect(manage.verify(`${body}.${[...signature].reverse().join("")}`)).toBeNull();
    expect(manage.verify(`${token}.extra`)).toBeNull();
    expect(manage.verify("")).toBeNull();
    expect(links(["another-secret-of-at-least-thirty-two-chars"]).links.verify(token)).toBeNull();
    // A texted booking link carries a guest too, but under its own key: it never opens a visit.
    const texted = createTokenSigner<{ g: string; v: string }>(SECRETS, "sms-link", () => NOW).sign(
      { g: "g", v: "v" },
      NOW + DAY,
    );
    expect(manage.verify(texted)).toBeNull();
  });

  it("keeps working with a rotated-out secret still listed", () => {
    const old = links(["the-old-secret-of-at-least-thirty-two-chars"]).links.sign("g", "v", NOW + DAY);
    expect(
      links([
        "the-new-secret-of-at-least-thirty-two-chars",
        "the-old-secret-of-at-least-thirty-two-chars",
      ]).links.verify(old),
    ).toEqual({ guestId: "g", visitId: "v" });
  });
});
