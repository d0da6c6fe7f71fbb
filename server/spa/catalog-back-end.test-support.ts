// A stand-in for the catalog's three Zenoti reads that counts each instance's calls, for the
// catalog cache's tests: it can change its data, fail, or hold every call until released.
import type { Center, Service, Therapist } from "~/domain/catalog";
import type { createCachedCatalog } from "./catalog-cache.server";

type CatalogReads = Parameters<typeof createCachedCatalog>[0];

export function clinic(id: string, name = `Glow Clinic ${id.toUpperCase()}`): Center {
  return {
    id,
    code: id.toUpperCase(),
    name,
    slug: id,
    description: "",
    address: { line1: "1 Main St", line2: null, city: "Austin", state: "TX", zip: "78701" },
    phone: "5125550100",
    email: "",
    latitude: 30.27,
    longitude: -97.74,
    timeZone: "America/Chicago",
    workingHours: [{ dayOfWeek: 1, opens: "09:00", closes: "19:00" }],
  };
}

const treatment = (centerId: string): Service => ({
  id: `${centerId}-facial`,
  code: "FAC",
  name: "Facial",
  displayName: "Facial",
  description: "",
  category: "Skin",
  subCategory: null,
  durationMinutes: 60,
  recoveryMinutes: 0,
  price: 12_000,
  isAddOn: false,
  addOnIds: [],
  canBook: true,
  imageUrl: null,
});

const nurse = (centerId: string): Therapist => ({
  id: `${centerId}-n1`,
  firstName: "Ana",
  lastName: "Diaz",
  displayName: "Ana D.",
  jobTitle: "Nurse",
  imageUrl: null,
});

export function countingBackEnd(clinicCount = 2) {
  let centers = Array.from({ length: clinicCount }, (_, i) => clinic(`c${i + 1}`));
  const calls = new Map<string, number>();
  let failing = false;
  let pending = 0;
  let gate: { promise: Promise<void>; open: () => void } | null = null;

  async function answer<T>(instance: string, value: () => T): Promise<T> {
    calls.set(instance, (calls.get(instance) ?? 0) + 1);
    pending++;
    try {
      await gate?.promise;
      if (failing) throw new Error("back end down");
      // A copy, as a new answer over HTTP would be.
      return structuredClone(value());
    } finally {
      pending--;
    }
  }

  return {
    /** The reads one instance makes, counted under its name. */
    for: (instance: string): CatalogReads => ({
      listCenters: () => answer(instance, () => ({ centers, withoutTimeZone: [] })),
      listServices: (centerId) => answer(instance, () => [treatment(centerId.toLowerCase())]),
      listTherapists: (centerId) => answer(instance, () => [nurse(centerId.toLowerCase())]),
    }),
    /** Calls made by one instance, or by all. */
    calls: (instance?: string) =>
      instance ? (calls.get(instance) ?? 0) : [...calls.values()].reduce((sum, n) => sum + n, 0),
    /** Calls that have started and not answered yet. */
    pending: () => pending,
    setCenters(next: Center[]) {
      centers = next;
    },
    setFailing(value: boolean) {
      failing = value;
    },
    /** Calls from now on wait until `release`. */
    hold() {
      let open = () => {};
      const promise = new Promise<void>((resolve) => {
        open = resolve;
      });
      gate = { promise, open };
    },
    release() {
      gate?.open();
      gate = null;
    },
  };
}
