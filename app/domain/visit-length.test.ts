import { describe, expect, it } from "vitest";
import type { Service } from "./catalog";
import { addOnsCarriedTo, offeringName } from "./service-kinds";
import {
  addedMinutes,
  addedMinutesLabel,
  ENHANCEMENT_MINUTES,
  enhancementsAgainstRule,
  visitLengthLabel,
  visitMinutes,
} from "./visit-length";

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

const LED_NEW = service({
  id: "led",
  name: "LED Light Therapy Enhancement (Addon)",
  isAddOn: true,
  durationMinutes: 15,
});
const MASK_NEW = service({
  id: "mask",
  name: "Hydrating Mask Enhancement (Addon)",
  isAddOn: true,
  durationMinutes: 15,
});
const LED_RET = service({
  id: "led-ret",
  name: "LED Light Therapy Enhancement (Addon)",
  isAddOn: true,
  durationMinutes: 0,
});
const MASK_RET = service({
  id: "mask-ret",
  name: "Hydrating Mask Enhancement (Addon)",
  isAddOn: true,
  durationMinutes: 0,
});
const FIXER = service({ id: "fixer", name: "Fixer", durationMinutes: 15 });
const NEW_FACIAL = service({
  id: "ft-new",
  name: "Signature Laser Facial - New Client",
  durationMinutes: 45,
  addOnIds: ["led", "mask", "fixer"],
});
const FACIAL = service({
  id: "ft-ret",
  name: "Signature Laser Facial",
  durationMinutes: 30,
  addOnIds: ["led-ret", "mask-ret", "fixer"],
});
const CATALOG = [NEW_FACIAL, FACIAL, LED_NEW, MASK_NEW, LED_RET, MASK_RET, FIXER];

describe("visitMinutes: the length the back end books", () => {
  it("is the treatment's duration and recovery and each add-on's duration, one after the other", () => {
    expect(visitMinutes(NEW_FACIAL, [])).toBe(45);
    expect(visitMinutes(NEW_FACIAL, [LED_NEW])).toBe(60);
    expect(visitMinutes(NEW_FACIAL, [LED_NEW, MASK_NEW])).toBe(75);
    expect(visitMinutes({ durationMinutes: 30, recoveryMinutes: 10 }, [{ durationMinutes: 15 }])).toBe(55);
  });

  it("gives a new client's enhancement 15 more minutes and a returning client's none, as the chain's catalog books them", () => {
    expect(visitMinutes(NEW_FACIAL, [LED_NEW]) - visitMinutes(NEW_FACIAL, [])).toBe(ENHANCEMENT_MINUTES.new);
    expect(visitMinutes(FACIAL, [LED_RET, MASK_RET]) - visitMinutes(FACIAL, [])).toBe(ENHANCEMENT_MINUTES.returning);
  });

  it("counts no negative length a back end might send", () => {
    expect(visitMinutes({ durationMinutes: -5, recoveryMinutes: -1 }, [{ durationMinutes: -15 }])).toBe(0);
    expect(addedMinutes({ durationMinutes: -15 })).toBe(0);
  });
});

describe("labels", () => {
  it("says a length in hours and minutes", () => {
    expect(visitLengthLabel(0)).toBe("0 min");
    expect(visitLengthLabel(45)).toBe("45 min");
    expect(visitLengthLabel(60)).toBe("1 hr");
    expect(visitLengthLabel(75)).toBe("1 hr 15 min");
    expect(visitLengthLabel(120)).toBe("2 hr");
  });

  it("says what an add-on adds, from its own catalog length", () => {
    expect(addedMinutesLabel(LED_NEW)).toBe("+15 min");
    expect(addedMinutesLabel(LED_RET)).toBe("no extra time");
    expect(addedMinutesLabel({ durationMinutes: 75 })).toBe("+1 hr 15 min");
  });
});

describe("enhancementsAgainstRule", () => {
  it("finds nothing in a catalog that keeps the chain's rule", () => {
    expect(enhancementsAgainstRule(CATALOG)).toEqual([]);
  });

  it("names a facial's enhancement whose length is not the rule's for that facial's clients", () => {
    // One enhancement shared by both facials, as a catalog without versions would have it.
    const shared = [
      { ...NEW_FACIAL },
      { ...FACIAL, addOnIds: ["led"] },
      LED_NEW,
      service({ id: "led-short", name: "Short Enhancement (Addon)", isAddOn: true, durationMinutes: 10 }),
    ];
    shared[0].addOnIds = ["led", "led-short"];
    expect(enhancementsAgainstRule(shared)).toEqual([
      {
        treatment: "Signature Laser Facial - New Client",
        enhancement: "Short Enhancement (Addon)",
        minutes: 10,
        expected: 15,
      },
      {
        treatment: "Signature Laser Facial",
        enhancement: "LED Light Therapy Enhancement (Addon)",
        minutes: 15,
        expected: 0,
      },
    ]);
  });

  it("leaves out add-ons that are not enhancements and treatments that are not facials", () => {
    const peel = service({ id: "peel", name: "Glow Peel", addOnIds: ["neck"] });
    const neck = service({ id: "neck", name: "Peel Area - Neck", isAddOn: true, durationMinutes: 10 });
    expect(enhancementsAgainstRule([peel, neck, FIXER, { ...FACIAL, addOnIds: ["fixer"] }])).toEqual([]);
  });
});

describe("addOnsCarriedTo: add-ons chosen with one version of a treatment, on another", () => {
  it("takes the returning facial's own enhancements of the same names, and keeps a shared add-on", () => {
    expect(addOnsCarriedTo(FACIAL, CATALOG, [LED_NEW, FIXER])).toEqual(["led-ret", "fixer"]);
  });

  it("drops what the treatment does not offer, and counts each once", () => {
    const other = service({ id: "x", name: "Eye Brightening Enhancement (Addon)", isAddOn: true });
    expect(
      addOnsCarriedTo(
        FACIAL,
        [...CATALOG, other],
        [other, MASK_NEW, { id: null, name: "Hydrating Mask Enhancement (Addon)" }],
      ),
    ).toEqual(["mask-ret"]);
  });

  it("compares names without the words that say which clients they are for", () => {
    expect(offeringName("Signature Laser Facial - New Client")).toBe(offeringName("Signature Laser Facial"));
    expect(offeringName("LED Enhancement - Returning Client (Addon)")).toBe(offeringName("LED Enhancement (Addon)"));
    expect(offeringName("LED Enhancement (Addon)")).not.toBe(offeringName("Mask Enhancement (Addon)"));
  });
});
