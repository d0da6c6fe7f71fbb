/**
 * The clinic map's geometry, worked out on the server (the locations loader) so that the browser
 * downloads only the drawing (`~/components/clinic-map`), not the outline and the placing of pins.
 */
export type MapPin = { id: string; slug: string; name: string; latitude: number; longitude: number; number: number };

/** A rough outline of the contiguous United States, as [longitude, latitude] pairs. */
const US_OUTLINE: [number, number][] = [
  [-124.7, 48.4],
  [-123.0, 49.0],
  [-95.2, 49.0],
  [-94.8, 49.4],
  [-89.6, 48.0],
  [-84.5, 46.5],
  [-82.4, 43.0],
  [-79.0, 43.3],
  [-76.3, 44.2],
  [-74.7, 45.0],
  [-71.5, 45.0],
  [-70.0, 46.7],
  [-69.2, 47.4],
  [-67.8, 47.1],
  [-67.0, 44.8],
  [-70.6, 43.1],
  [-70.0, 41.7],
  [-71.9, 41.3],
  [-74.0, 40.6],
  [-74.9, 38.9],
  [-76.0, 37.0],
  [-75.5, 35.2],
  [-78.0, 33.9],
  [-80.9, 32.0],
  [-81.4, 30.4],
  [-80.0, 26.8],
  [-80.4, 25.2],
  [-81.1, 25.1],
  [-82.7, 27.8],
  [-83.7, 29.9],
  [-85.4, 29.7],
  [-88.0, 30.4],
  [-89.6, 30.2],
  [-89.4, 29.0],
  [-91.5, 29.5],
  [-94.0, 29.7],
  [-97.1, 27.8],
  [-97.2, 25.9],
  [-99.5, 27.5],
  [-101.4, 29.8],
  [-103.1, 29.0],
  [-104.5, 29.6],
  [-106.5, 31.8],
  [-108.2, 31.3],
  [-111.1, 31.3],
  [-114.8, 32.5],
  [-117.1, 32.5],
  [-118.5, 34.0],
  [-120.6, 34.6],
  [-122.5, 37.5],
  [-124.2, 40.4],
  [-124.5, 42.8],
  [-124.0, 46.3],
];

const WEST = -125.5;
const NORTH = 50;
const SCALE = 20;
/** Longitude degrees shrink with latitude; cos(38°) keeps the map's proportions near true. */
const LON_FACTOR = Math.cos((38 * Math.PI) / 180);

function project(longitude: number, latitude: number): [number, number] {
  return [
    Math.round((longitude - WEST) * LON_FACTOR * SCALE * 10) / 10,
    Math.round((NORTH - latitude) * SCALE * 10) / 10,
  ];
}

const [MAP_WIDTH] = project(-66, 0);
const [, MAP_HEIGHT] = project(0, 24);

/**
 * A pin's side in map units. The map is drawn at least 720 CSS pixels wide (controls.css, the
 * frame scrolls sideways on a narrower screen), where 60 units are 46 pixels: every pin is a
 * touch target of at least 44 by 44 pixels, whatever the screen.
 */
export const PIN_SIZE = 60;
/** The room kept between two pins, so that neither covers the other's number. */
export const PIN_GAP = 8;

/**
 * Where each pin is drawn: on its clinic, unless that would make it overlap another; then the two
 * are pushed apart, along the axis where they overlap least, until none overlap, and a line joins
 * each moved pin to its true place. Pure and deterministic: the server and the browser draw the
 * same map.
 */
export function placePins(
  points: [number, number][],
  { size = PIN_SIZE, gap = PIN_GAP, width = MAP_WIDTH, height = MAP_HEIGHT } = {},
): [number, number][] {
  const placed = points.map(([x, y]) => ({ x, y }));
  const apart = size + gap;
  const half = size / 2;
  for (let round = 0; round < 500; round++) {
    let moved = false;
    for (let i = 0; i < placed.length; i++) {
      for (let j = i + 1; j < placed.length; j++) {
        const a = placed[i];
        const b = placed[j];
        const dx = b.x - a.x;
        const dy = b.y - a.y;
        const overlapX = apart - Math.abs(dx);
        const overlapY = apart - Math.abs(dy);
        if (overlapX <= 0 || overlapY <= 0) continue;
        moved = true;
        if (overlapX <= overlapY) {
          const shift = (overlapX / 2 + 0.5) * (dx < 0 ? -1 : 1);
          a.x -= shift;
          b.x += shift;
        } else {
          const shift = (overlapY / 2 + 0.5) * (dy < 0 ? -1 : 1);
          a.y -= shift;
          b.y += shift;
        }
      }
    }
    for (const p of placed) {
      p.x = Math.min(Math.max(p.x, half), width - half);
      p.y = Math.min(Math.max(p.y, half), height - half);
    }
    if (!moved) break;
  }
  return placed.map((p) => [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10]);
}

export type MapDrawing = {
  viewBox: string;
  /** The outline's points, as an SVG polygon takes them. */
  outline: string;
  pinSize: number;
  /** In number order: where each clinic is (`spot`) and where its pin is drawn (`place`). */
  pins: { id: string; slug: string; name: string; number: number; spot: [number, number]; place: [number, number] }[];
};

/** Everything the map needs to be drawn: pure and deterministic, so every visitor gets the same map. */
export function drawMap(pins: MapPin[]): MapDrawing {
  const ordered = [...pins].sort((a, b) => a.number - b.number);
  const spots = ordered.map((pin) => project(pin.longitude, pin.latitude));
  const places = placePins(spots);
  return {
    viewBox: `0 0 ${MAP_WIDTH} ${MAP_HEIGHT}`,
    outline: US_OUTLINE.map(([lon, lat]) => project(lon, lat).join(",")).join(" "),
    pinSize: PIN_SIZE,
    pins: ordered.map(({ id, slug, name, number }, i) => ({
      id,
      slug,
      name,
      number,
      spot: spots[i],
      place: places[i],
    })),
  };
}
