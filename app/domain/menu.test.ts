import { describe, expect, it } from "vitest";
import { centerSlug, isEnhancement, type Service } from "./catalog";
import { buildMenu } from "./menu";
import { formatPriceRange } from "~/lib/money";

function service(partial: Partial<Service> & Pick<Service, "id" | "name">): Service {
  return {
    code: "",
    displayName: partial.name,
    description: "",
    category: "Facials",
    subCategory: null,
    durationMinutes: 30,
    recoveryMinutes: 0,
    price: 0,
    isAddOn: false,
    addOnIds: [],
    canBook: true,
    imageUrl: null,
    ...partial,
  };
}

describe("buildMenu", () => {
  it("groups treatments by category and prices area-priced ones by their areas", () => {
    const menu = buildMenu(
      [
        service({ id: "f", name: "Signature Laser Facial", price: 19900, addOnIds: ["e"] }),
        service({ id: "l", name: "Laser Hair Removal", category: "Laser Hair Removal", addOnIds: ["a1", "a2"] }),
        service({ id: "a1", name: "Area - Underarms", isAddOn: true, price: 9900 }),
        service({ id: "a2", name: "Area - Back", isAddOn: true, price: 27900 }),
        service({ id: "c", name: "Consultation", category: "Consultation" }),
        service({ id: "e", name: "LED Enhancement (Addon)", isAddOn: true, price: 5000 }),
      ],
      formatPriceRange,
    );
    expect(menu.treatments).toEqual([
      { category: "Facials", items: [expect.objectContaining({ name: "Signature Laser Facial", price: "$199" })] },
      { category: "Laser Hair Removal", items: [expect.objectContaining({ price: "$99–$279 per area" })] },
      { category: "Consultation", items: [expect.objectContaining({ price: "Free" })] },
    ]);
    expect(menu.addOns.map((a) => a.name)).toEqual(["LED Enhancement (Addon)"]);
  });

  it("lists an enhancement each facial version offers a version of once", () => {
    const menu = buildMenu(
      [
        service({ id: "new", name: "Signature Laser Facial - New Client", addOnIds: ["e-new"] }),
        service({ id: "ret", name: "Signature Laser Facial", addOnIds: ["e-ret"] }),
        service({ id: "e-new", name: "LED Enhancement (Addon)", isAddOn: true, durationMinutes: 15, price: 5000 }),
        service({ id: "e-ret", name: "LED Enhancement (Addon)", isAddOn: true, durationMinutes: 0, price: 5000 }),
      ],
      formatPriceRange,
    );
    expect(menu.addOns.map((a) => a.id)).toEqual(["e-new"]);
  });

  it("prices in cents: a range of areas with cents, and one price when every area costs the same", () => {
    const menu = buildMenu(
      [
        service({
          id: "pf",
          name: "Laser Hair Removal - Partial Face",
          category: "Laser Hair Removal",
          addOnIds: ["lip", "chin", "side"],
        }),
        service({ id: "lip", name: "Area - Upper Lip", isAddOn: true, price: 5950 }),
        service({ id: "chin", name: "Area - Chin", isAddOn: true, price: 5950 }),
        service({ id: "side", name: "Area - Sideburns", isAddOn: true, price: 6999 }),
        service({ id: "l", name: "Laser Hair Removal", category: "Laser Hair Removal", addOnIds: ["lip", "chin"] }),
        service({ id: "f", name: "Signature Laser Facial", price: 1 }),
      ],
      formatPriceRange,
    );
    expect(menu.treatments.flatMap((s) => s.items.map((i) => i.price))).toEqual([
      "$59.50–$69.99 per area",
      "$59.50 per area",
      "$0.01",
    ]);
  });
});

describe("catalog helpers", () => {
  it("makes URL slugs from clinic names", () => {
    expect(centerSlug("Glow Clinic Austin Downtown")).toBe("austin-downtown");
    expect(centerSlug("Glow Clinic Nashville The Gulch")).toBe("nashville-the-gulch");
    expect(centerSlug("Café  Señor / Uptown")).toBe("cafe-senor-uptown");
  });

  it("tells enhancements by the add-on marker", () => {
    expect(isEnhancement({ isAddOn: true, name: "Hydrating Mask Enhancement (Addon)" })).toBe(true);
    expect(isEnhancement({ isAddOn: true, name: "Partial Face Area - Chin" })).toBe(false);
    expect(isEnhancement({ isAddOn: false, name: "Addon looking main service" })).toBe(false);
  });
});
