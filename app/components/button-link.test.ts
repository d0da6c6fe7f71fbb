import { describe, expect, it } from "vitest";
import { formTarget } from "./button-link";

describe("a link's target as a GET form", () => {
  it("takes the query as fields, in order, and keeps the path and the hash as the action", () => {
    expect(formTarget("/appointment/service?id=abc&choose=def#options", "/here")).toEqual({
      action: "/appointment/service#options",
      fields: [
        ["id", "abc"],
        ["choose", "def"],
      ],
    });
  });
  it("decodes the fields, which the browser encodes again when it sends them", () => {
    expect(formTarget("/login?redirectTo=%2Fappointment%2Fdetails", "/here").fields).toEqual([
      ["redirectTo", "/appointment/details"],
    ]);
  });
  it("stays on the current path for a query alone", () => {
    expect(formTarget("?date=2026-12-01&group=all", "/appointment/time")).toEqual({
      action: "/appointment/time",
      fields: [
        ["date", "2026-12-01"],
        ["group", "all"],
      ],
    });
  });
  it("has no fields for a path alone, and keeps repeated names", () => {
    expect(formTarget("/locations", "/here")).toEqual({ action: "/locations", fields: [] });
    expect(formTarget("/x?a=1&a=2", "/here").fields).toEqual([
      ["a", "1"],
      ["a", "2"],
    ]);
  });
});
