import { describe, expect, it } from "vitest";
import type { Service } from "~/domain/catalog";
import type { GuestPackage } from "../spa/sales.server";
import { returningVersionOf, treatmentsFor, type GuestHoldings } from "./holdings.server";

function service(id: string, name: string, isAddOn = false): Service {
  return {
    id,
    code: id,
    name,
    displayName: name,
    description: "",
    category: "Facials",
    subCategory: null,
    durationMinutes: 30,
    recoveryMinutes: 0,
    price: 10_000,
    isAddOn,
    addOnIds: [],
    canBook: true,
    imageUrl: null,
  };
}

const NEW_FACIAL = service("ft-new", "Signature Laser Facial - New Client");
const FACIAL = service("ft-ret", "Signature Laser Facial");
const LHR = service("lhr", "Laser Hair Removal");
const LHR_RETURN = service("lhr-ret", "Return Client Laser Hair Removal");
const PEEL = service("peel", "Glow Peel");
const LED = service("led", "LED Light Therapy Enhancement (Addon)", true);
const CATALOG = [NEW_FACIAL, FACIAL, LHR, LHR_RETURN, PEEL, LED];

function facialSeries(left: number): GuestPackage {
  return {
    userPackageId: "up-1",
    packageId: "p-1",
    name: "Signature Facial Series: 3 sessions",
    status: 1,
    startDate: null,
    endDate: "2027-11-01",
    purchasePriceCents: 53_700,
    services: [{ serviceId: "FT-RET", name: "", total: 3, redeemed: 3 - left, left }],
  };
}

const ids = (services: Service[]) => services.map((s) => s.id);

describe("the treatments a guest is offered", () => {
  it("a new client: the new-client versions and what needs no version; never an add-on", () => {
    const holdings: GuestHoldings = { clientType: "new", packages: [] };
    expect(ids(treatmentsFor(CATALOG, holdings))).toEqual(["ft-new", "lhr", "peel"]);
  });

  it("a returning client: anything not marked for new clients", () => {
    expect(ids(treatmentsFor(CATALOG, { clientType: "returning", packages: [] }))).toEqual([
      "ft-ret",
      "lhr",
      "lhr-ret",
      "peel",
    ]);
  });

  it("a new client with a session left of a package covering the returning facial is offered that facial too (its id in any case)", () => {
    expect(ids(treatmentsFor(CATALOG, { clientType: "new", packages: [facialSeries(2)] }))).toEqual([
      "ft-new",
      "ft-ret",
      "lhr",
      "peel",
    ]);
  });

  it("the Fixer on its own: a returning client's (they have had a facial), never a new client's", () => {
    const FIXER = service("fixer", "Fixer");
    expect(ids(treatmentsFor([...CATALOG, FIXER], { clientType: "new", packages: [] }))).not.toContain("fixer");
    expect(ids(treatmentsFor([...CATALOG, FIXER], { clientType: "returning", packages: [] }))).toContain("fixer");
  });

  it("a package with no session left offers nothing more", () => {
    expect(ids(treatmentsFor(CATALOG, { clientType: "new", packages: [facialSeries(0)] }))).toEqual([
      "ft-new",
      "lhr",
      "peel",
    ]);
  });
});

describe("the returning version of a new-client choice", () => {
  it("is the returning treatment of the same kind", () => {
    expect(returningVersionOf(CATALOG, NEW_FACIAL)?.id).toBe("ft-ret");
  });

  it("is none for a treatment every client books, a returning version already, or a clinic without one", () => {
    expect(returningVersionOf(CATALOG, PEEL)).toBeNull();
    expect(returningVersionOf(CATALOG, LHR)).toBeNull();
    expect(returningVersionOf(CATALOG, service("peel-new", "Glow Peel - New Client"))).toBeNull();
    expect(returningVersionOf(CATALOG, FACIAL)).toBeNull();
    expect(returningVersionOf([NEW_FACIAL, PEEL], NEW_FACIAL)).toBeNull();
  });
});
