import { describe, expect, it } from "vitest";
import { centerSlug, isEnhancement, type Service } from "./catalog";
import { buildMenu } from "./menu";

function service(partial: Partial<Service> & Pick<Service, "id" | "name">): Service {
  return {
    code: "", displayName: partial.name, description: "", category: "Facials", subCategory: null, durationMinutes: 30,
    recoveryMinutes: 0, price: 0, isAddOn: false, addOnIds: [], canBook: true, ...partial,
  };
}

describe("buildMenu", () => {
  const range = (min: number, max: number) => (min === max ? `$${min}` : `$${min}-$${max}`);

  it("groups treatments by category and prices area-priced ones by their areas", () => {
    const menu = buildMenu(
      [
        service({ id: "f", name: "Signature Laser Facial", price: 199, addOnIds: ["e"] }),
        service({ id: "l", name: "Laser Hair Removal", category: "Laser Hair Removal", addOnIds: ["a1", "a2"] }),
        service({ id: "a1", name: "Area - Underarms", isAddOn: true, price: 99 }),
        service({ id: "a2", name: "Area - Back", isAddOn: true, price: 279 }),
        service({ id: "c", name: "Consultation", category: "Consultation" }),
        service({ id: "e", name: "LED Enhancement (Addon)", isAddOn: true, price: 50 }),
      ],
      range,
    );
    expect(menu.treatments).toEqual([
      { category: "Facials", items: [expect.objectContaining({ name: "Signature Laser Facial", price: "$199" })] },
      { category: "Laser Hair Removal", items: [expect.objectContaining({ price: "$99-$279 per area" })] },
      { category: "Consultation", items: [expect.objectContaining({ price: "Free" })] },
    ]);
    expect(menu.addOns.map((a) => a.name)).toEqual(["LED Enhancement (Addon)"]);
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
