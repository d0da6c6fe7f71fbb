export type GeoPoint = { latitude: number; longitude: number };
export type GeocodedPlace = GeoPoint & { label: string };

/** Turns a US ZIP code into a point on the map. Null when the ZIP is unknown. */
export interface Geocoder {
  readonly kind: "zip-table" | "google";
  geocodeZip(zip: string): Promise<GeocodedPlace | null>;
}

export class GeocoderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GeocoderError";
  }
}
