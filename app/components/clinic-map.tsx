import { href } from "react-router";

export type MapPin = { id: string; slug: string; name: string; latitude: number; longitude: number; number: number };

/** A rough outline of the contiguous United States, as [longitude, latitude] pairs. */
const US_OUTLINE: [number, number][] = [
  [-124.7, 48.4], [-123.0, 49.0], [-95.2, 49.0], [-94.8, 49.4], [-89.6, 48.0], [-84.5, 46.5], [-82.4, 43.0],
  [-79.0, 43.3], [-76.3, 44.2], [-74.7, 45.0], [-71.5, 45.0], [-70.0, 46.7], [-69.2, 47.4], [-67.8, 47.1],
  [-67.0, 44.8], [-70.6, 43.1], [-70.0, 41.7], [-71.9, 41.3], [-74.0, 40.6], [-74.9, 38.9], [-76.0, 37.0],
  [-75.5, 35.2], [-78.0, 33.9], [-80.9, 32.0], [-81.4, 30.4], [-80.0, 26.8], [-80.4, 25.2], [-81.1, 25.1],
  [-82.7, 27.8], [-83.7, 29.9], [-85.4, 29.7], [-88.0, 30.4], [-89.6, 30.2], [-89.4, 29.0], [-91.5, 29.5],
  [-94.0, 29.7], [-97.1, 27.8], [-97.2, 25.9], [-99.5, 27.5], [-101.4, 29.8], [-103.1, 29.0], [-104.5, 29.6],
  [-106.5, 31.8], [-108.2, 31.3], [-111.1, 31.3], [-114.8, 32.5], [-117.1, 32.5], [-118.5, 34.0],
  [-120.6, 34.6], [-122.5, 37.5], [-124.2, 40.4], [-124.5, 42.8], [-124.0, 46.3],
];

const WEST = -125.5;
const NORTH = 50;
const SCALE = 20;
/** Longitude degrees shrink with latitude; cos(38°) keeps the map's proportions near true. */
const LON_FACTOR = Math.cos((38 * Math.PI) / 180);

function project(longitude: number, latitude: number): [number, number] {
  return [Math.round((longitude - WEST) * LON_FACTOR * SCALE * 10) / 10, Math.round((NORTH - latitude) * SCALE * 10) / 10];
}

/**
 * The clinics on a map drawn on the server as SVG: no map service, no JavaScript. Each numbered
 * pin links to its clinic page; the numbered list beside it carries the same links in text.
 */
export function ClinicMap({ pins }: { pins: MapPin[] }) {
  const outline = US_OUTLINE.map(([lon, lat]) => project(lon, lat).join(",")).join(" ");
  const [width] = project(-66, 0);
  const [, height] = project(0, 24);
  return (
    <svg className="clinic-map" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="map-title">
      <title id="map-title">Map of our clinics in the United States</title>
      <polygon points={outline} className="land" />
      {pins.map((pin) => {
        const [x, y] = project(pin.longitude, pin.latitude);
        return (
          <a key={pin.id} href={href("/locations/:slug", { slug: pin.slug })} aria-label={`${pin.number}. ${pin.name}`}>
            <circle cx={x} cy={y} r={13} className="pin" />
            <text x={x} y={y + 5} textAnchor="middle" className="pin-label">
              {pin.number}
            </text>
          </a>
        );
      })}
    </svg>
  );
}
