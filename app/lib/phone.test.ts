import { describe, expect, it } from "vitest";
import { formatPhone, phoneDigits } from "./phone";

describe("phone numbers", () => {
  it("keeps digits only, at most 10", () => {
    expect(phoneDigits("(512) 555-0141 ext 9")).toBe("5125550141");
  });
  it("groups 3-3-4 with dashes, partial input as far as it goes", () => {
    expect(formatPhone("5125550141")).toBe("512-555-0141");
    expect(formatPhone("51255")).toBe("512-55");
    expect(formatPhone("512")).toBe("512");
    expect(formatPhone("")).toBe("");
  });
});
