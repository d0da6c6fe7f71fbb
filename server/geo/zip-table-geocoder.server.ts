import zipcodes from "zipcodes";
import type { Geocoder } from "./geocoder.server";

/** The offline default: a US ZIP table shipped in an npm package. */
export function createZipTableGeocoder(): Geocoder {
  return {
    kind: "zip-table",
    async geocodeZip(zip) {
      const place = zipcodes.lookup(zip);
      if (!place || typeof place.latitude !== "number" || typeof place.longitude !== "number") return null;
      return { latitude: place.latitude, longitude: place.longitude, label: `${place.city}, ${place.state} ${zip}` };
    },
  };
}
