import { describe, expect, it } from "vitest";
import { formatPhone, isPhoneNumber, phoneDigits } from "./phone";

describe("phone numbers", () => {
  it("keeps digits only, at most 10", () => {
    expect(phoneDigits("(512) 555-0141 ext 9")).toBe("5125550141");
  });
  it("drops the country code a browser fills in", () => {
    expect(phoneDigits("+1 512-555-0141")).toBe("5125550141");
    expect(formatPhone("+15125550141")).toBe("512-555-0141");
    // Ten digits are a national number even when they start with 1: the server refuses it as typed.
    expect(phoneDigits("1512555014")).toBe("1512555014");
  });
  it("groups 3-3-4 with dashes, partial input as far as it goes", () => {
    expect(formatPhone("5125550141")).toBe("512-555-0141");
    expect(formatPhone("51255")).toBe("512-55");
    expect(formatPhone("512")).toBe("512");
    expect(formatPhone("")).toBe("");
  });
  it("are ten digits, or eleven with the country code, however they are written", () => {
    for (const ok of ["5125550141", "512-555-0141", "(512) 555.0141", "+1 512 555 0141", "15125550141"])
      expect(isPhoneNumber(ok), ok).toBe(true);
    for (const bad of ["512555014", "25125550141", "+44 20 7946 0958", "512-555-0141 ext 9", "512_555_0141", ""])
      expect(isPhoneNumber(bad), bad).toBe(false);
  });
});
