import { describe, expect, it } from "vitest";
import { createZipTableGeocoder, lookupZip, readZipTable } from "./zip-table-geocoder.server";

describe("the offline ZIP table", () => {
  const geocoder = createZipTableGeocoder();

  it("finds a US ZIP code's point and names its city and state, leading zeros kept", async () => {
    expect(await geocoder.geocodeZip("78701")).toEqual({
      latitude: 30.2713,
      longitude: -97.7426,
      label: "Austin, TX 78701",
    });
    expect(await geocoder.geocodeZip("10001")).toEqual({
      latitude: 40.7484,
      longitude: -73.9967,
      label: "New York, NY 10001",
    });
    const boston = await geocoder.geocodeZip("02108");
    expect(boston?.label).toBe("Boston, MA 02108");
    expect(boston?.latitude).toBeCloseTo(42.36, 1);
  });

  it("knows nothing of a code that is not a US ZIP", async () => {
    expect(await geocoder.geocodeZip("00000")).toBeNull();
    expect(await geocoder.geocodeZip("99999")).toBeNull();
    expect(await geocoder.geocodeZip("7870")).toBeNull();
    expect(await geocoder.geocodeZip("M5V")).toBeNull();
    expect(await geocoder.geocodeZip("78701-1234")).toBeNull();
  });

  it("reads the package's entries, escaped names included, and finds the first and last", () => {
    const table = readZipTable(
      'exports.codes = {"99950":{"zip":"99950","latitude":55.5,"longitude":-131.6,"city":"Ketchikan","state":"AK","country":"US"},' +
        '"00501":{"zip":"00501","latitude":40.8154,"longitude":-73.0451,"city":"Holtsville","state":"NY","country":"US"},' +
        '"12345":{"zip":"12345","latitude":42.8,"longitude":-73.9,"city":"Say \\"Hi\\"","state":"NY","country":"US"}};',
    );
    expect(lookupZip(table, "00501")?.label).toBe("Holtsville, NY 00501");
    expect(lookupZip(table, "99950")).toEqual({ latitude: 55.5, longitude: -131.6, label: "Ketchikan, AK 99950" });
    expect(lookupZip(table, "12345")?.label).toBe('Say "Hi", NY 12345');
    expect(lookupZip(table, "12346")).toBeNull();
  });
});
