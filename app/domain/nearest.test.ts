import { describe, expect, it } from "vitest";
import { distanceKm, nearest, ZIP_PATTERN } from "./nearest";

const austin = { name: "Austin", latitude: 30.2653, longitude: -97.7443 };
const dallas = { name: "Dallas", latitude: 32.7959, longitude: -96.8031 };
const houston = { name: "Houston", latitude: 29.7909, longitude: -95.3984 };

describe("distanceKm", () => {
  it("measures great-circle distance", () => {
    expect(distanceKm(austin, dallas)).toBeGreaterThan(290);
    expect(distanceKm(austin, dallas)).toBeLessThan(300);
    expect(distanceKm(austin, austin)).toBe(0);
  });
});

describe("nearest", () => {
  it("keeps clinics within 50 km, nearest first", () => {
    const origin = { latitude: 30.4, longitude: -97.7 };
    const result = nearest(origin, [dallas, austin, houston]);
    expect(result.within.map((r) => r.item.name)).toEqual(["Austin"]);
    expect(result.fallback).toBeNull();
  });

  it("offers the default clinic when none is within the radius", () => {
    const montana = { latitude: 45.5, longitude: -109.4 };
    const result = nearest(montana, [austin, dallas, houston], { defaultPlace: houston });
    expect(result.within).toEqual([]);
    expect(result.fallback?.item).toBe(houston);
  });

  it("falls back to the nearest clinic when no default is set", () => {
    const result = nearest({ latitude: 45.5, longitude: -109.4 }, [austin, dallas, houston]);
    expect(result.fallback?.item).toBe(dallas);
  });

  it("honours a custom radius", () => {
    expect(nearest(austin, [austin, houston, dallas], { radiusKm: 250 }).within.map((r) => r.item.name)).toEqual([
      "Austin",
      "Houston",
    ]);
  });
});

describe("ZIP_PATTERN", () => {
  it("accepts 5-digit and ZIP+4 codes only", () => {
    for (const ok of ["78701", "78701-1234"]) expect(ZIP_PATTERN.test(ok)).toBe(true);
    for (const bad of ["7870", "787011", "abcde", "78701-12", " 78701", "78701\n"])
      expect(ZIP_PATTERN.test(bad)).toBe(false);
  });
});
