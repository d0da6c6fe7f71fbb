import fs from "node:fs";
import { createRequire } from "node:module";
import type { GeocodedPlace, Geocoder } from "./geocoder.server";

/**
 * One US ZIP code's entry in the `zipcodes` package's table (`lib/codes.js`, a 5 MB object literal):
 * zip, latitude, longitude, city and state, in that order. The package's own module is not loaded:
 * compiling that literal and the indexes the package builds beside it (by city, by state, Canadian
 * codes) kept about 90 MB of memory in every instance for a lookup by ZIP alone.
 */
const ENTRY =
  /"(\d{5})":\{"zip":"\d{5}","latitude":(-?\d+(?:\.\d+)?),"longitude":(-?\d+(?:\.\d+)?),"city":"((?:[^"\\]|\\.)*)","state":"([A-Z]{2})"/g;

/** The US ZIP codes as sorted numbers, with each one's point and "City, ST" beside it. */
export type ZipTable = {
  zips: Int32Array;
  latitudes: Float64Array;
  longitudes: Float64Array;
  labelIndex: Uint32Array;
  labels: string[];
};

/** Reads the table out of the package's data file: about 2 MB kept, instead of the module's 90. */
export function readZipTable(source: string): ZipTable {
  const rows: { zip: number; latitude: number; longitude: number; label: number }[] = [];
  const labelNumbers = new Map<string, number>();
  for (const [, zip, latitude, longitude, city, state] of source.matchAll(ENTRY)) {
    const label = `${JSON.parse(`"${city}"`) as string}, ${state}`;
    let number = labelNumbers.get(label);
    if (number === undefined) {
      number = labelNumbers.size;
      labelNumbers.set(label, number);
    }
    rows.push({ zip: Number(zip), latitude: Number(latitude), longitude: Number(longitude), label: number });
  }
  rows.sort((a, b) => a.zip - b.zip);
  return {
    zips: Int32Array.from(rows, (row) => row.zip),
    latitudes: Float64Array.from(rows, (row) => row.latitude),
    longitudes: Float64Array.from(rows, (row) => row.longitude),
    labelIndex: Uint32Array.from(rows, (row) => row.label),
    labels: [...labelNumbers.keys()],
  };
}

export function lookupZip(table: ZipTable, zip: string): GeocodedPlace | null {
  if (!/^\d{5}$/.test(zip)) return null;
  const wanted = Number(zip);
  let low = 0;
  let high = table.zips.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = table.zips[middle];
    if (found === wanted) {
      return {
        latitude: table.latitudes[middle],
        longitude: table.longitudes[middle],
        label: `${table.labels[table.labelIndex[middle]]} ${zip}`,
      };
    }
    if (found < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return null;
}

let shared: ZipTable | null = null;

/** The table of this process, read once from the installed package. */
function zipTable(): ZipTable {
  if (!shared) {
    const file = createRequire(import.meta.url).resolve("zipcodes/lib/codes.js");
    shared = readZipTable(fs.readFileSync(file, "utf8"));
    // A package whose data file changed shape would leave every ZIP unknown: refuse to start instead.
    if (shared.zips.length < 30_000)
      throw new Error(
        `The ZIP table in the zipcodes package has ${shared.zips.length} US codes; expected over 30,000.`,
      );
  }
  return shared;
}

/** The offline default: the US ZIP table shipped in the `zipcodes` npm package. */
export function createZipTableGeocoder(): Geocoder {
  const table = zipTable();
  return {
    kind: "zip-table",
    async geocodeZip(zip) {
      return lookupZip(table, zip);
    },
  };
}
