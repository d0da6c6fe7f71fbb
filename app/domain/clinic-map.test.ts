import { describe, expect, it } from "vitest";
import { PIN_GAP, PIN_SIZE, placePins } from "./clinic-map";

/** The largest of the two distances along the axes: two squares overlap when it is under their side. */
const apart = (a: [number, number], b: [number, number]) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]));

describe("placing the map's pins", () => {
  it("leaves pins that do not touch where they are", () => {
    const points: [number, number][] = [
      [100, 100],
      [300, 100],
      [100, 300],
    ];
    expect(placePins(points, { width: 1000, height: 500 })).toEqual(points);
  });

  it("pushes apart pins that would overlap, so that none covers another", () => {
    // Austin, Dallas and Houston as the map projects them: 15 to 60 units apart.
    const texas: [number, number][] = [
      [437.4, 394.7],
      [452.3, 344.1],
      [474.4, 404.2],
    ];
    const placed = placePins(texas, { width: 937.7, height: 520 });
    for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++)
        expect(apart(placed[i], placed[j])).toBeGreaterThanOrEqual(PIN_SIZE + PIN_GAP - 0.2);
    }
    // Moved no further than it takes.
    placed.forEach((p, i) => {
      expect(apart(p, texas[i])).toBeLessThan(PIN_SIZE);
    });
  });

  it("keeps every pin whole inside the map", () => {
    const placed = placePins(
      [
        [2, 2],
        [999, 499],
        [500, 250],
        [505, 250],
      ],
      { width: 1000, height: 500 },
    );
    for (const [x, y] of placed) {
      expect(x).toBeGreaterThanOrEqual(PIN_SIZE / 2);
      expect(x).toBeLessThanOrEqual(1000 - PIN_SIZE / 2);
      expect(y).toBeGreaterThanOrEqual(PIN_SIZE / 2);
      expect(y).toBeLessThanOrEqual(500 - PIN_SIZE / 2);
    }
  });

  it("draws the same map every time: the server and the browser agree", () => {
    const points: [number, number][] = [
      [112.3, 318.3],
      [129.6, 343.1],
      [48.8, 244.2],
      [811.8, 185.2],
      [857.8, 153],
    ];
    expect(placePins(points)).toEqual(placePins(points));
  });
});
