import { EMBEDDED_AVAILABILITY_GUEST_ID } from "../embedded-defaults";

/**
 * The fictional chain the sandbox is seeded with on first start: real US cities with real
 * coordinates and time zones, invented street addresses, nurses and a catalog priced per clinic.
 */

export type SeedCenter = {
  code: string;
  name: string;
  address1: string;
  city: string;
  stateCode: string;
  stateName: string;
  zip: string;
  phone: string;
  latitude: number;
  longitude: number;
  /** Windows standard time-zone name, as Zenoti reports it. */
  timeZone: string;
  /** Multiplier applied to list prices: clinics in dearer cities charge more. */
  priceLevel: number;
  /** Prepaid clinics take payment at booking; the others hold the card. */
  prepaid: boolean;
  nurses: string[];
};

export const seedCenters: SeedCenter[] = [
  {
    code: "ATX",
    name: "Austin Downtown",
    address1: "301 Congress Ave, Suite 120",
    city: "Austin",
    stateCode: "TX",
    stateName: "Texas",
    zip: "78701",
    phone: "5125550141",
    latitude: 30.2653,
    longitude: -97.7443,
    timeZone: "Central Standard Time",
    priceLevel: 1,
    prepaid: false,
    nurses: ["Maria Alvarez", "Jenna Holt", "Priya Raman", "Dana Whitfield"],
  },
  {
    code: "DAL",
    name: "Dallas Uptown",
    address1: "2600 McKinney Ave, Suite 210",
    city: "Dallas",
    stateCode: "TX",
    stateName: "Texas",
    zip: "75201",
    phone: "2145550122",
    latitude: 32.7959,
    longitude: -96.8031,
    timeZone: "Central Standard Time",
    priceLevel: 1,
    prepaid: true,
    nurses: ["Kelsey Moreno", "Alicia Grant", "Tamara Lin"],
  },
  {
    code: "HOU",
    name: "Houston Heights",
    address1: "1100 Yale St, Suite 3",
    city: "Houston",
    stateCode: "TX",
    stateName: "Texas",
    zip: "77008",
    phone: "7135550177",
    latitude: 29.7909,
    longitude: -95.3984,
    timeZone: "Central Standard Time",
    priceLevel: 1,
    prepaid: false,
    nurses: ["Brianna Cole", "Sofia Nguyen", "Rachel Ortiz", "Megan Price", "Lauren Baptiste"],
  },
  {
    code: "PHX",
    name: "Phoenix Biltmore",
    address1: "2425 E Camelback Rd, Suite 140",
    city: "Phoenix",
    stateCode: "AZ",
    stateName: "Arizona",
    zip: "85016",
    phone: "6025550193",
    latitude: 33.5093,
    longitude: -112.0298,
    timeZone: "US Mountain Standard Time",
    priceLevel: 1,
    prepaid: false,
    nurses: ["Hannah Reyes", "Olivia Brandt", "Carmen Diaz"],
  },
  {
    code: "DEN",
    name: "Denver Cherry Creek",
    address1: "240 Milwaukee St, Suite 105",
    city: "Denver",
    stateCode: "CO",
    stateName: "Colorado",
    zip: "80206",
    phone: "3035550164",
    latitude: 39.7186,
    longitude: -104.9531,
    timeZone: "Mountain Standard Time",
    priceLevel: 1.05,
    prepaid: true,
    nurses: ["Erin Sutton", "Nora Kim", "Jessica Vance", "Paige Ellison"],
  },
  {
    code: "LAX",
    name: "Los Angeles West Hollywood",
    address1: "8500 Melrose Ave, Suite 201",
    city: "West Hollywood",
    stateCode: "CA",
    stateName: "California",
    zip: "90069",
    phone: "3105550118",
    latitude: 34.0838,
    longitude: -118.3776,
    timeZone: "Pacific Standard Time",
    priceLevel: 1.2,
    prepaid: true,
    nurses: ["Ava Castillo", "Chloe Bennett", "Isabel Fuentes", "Grace Yamamoto", "Lily Henderson"],
  },
  {
    code: "SAN",
    name: "San Diego La Jolla",
    address1: "7825 Fay Ave, Suite 180",
    city: "La Jolla",
    stateCode: "CA",
    stateName: "California",
    zip: "92037",
    phone: "8585550136",
    latitude: 32.8426,
    longitude: -117.2743,
    timeZone: "Pacific Standard Time",
    priceLevel: 1.15,
    prepaid: false,
    nurses: ["Mia Delgado", "Emma Larsen", "Zoe Patel"],
  },
  {
    code: "SFO",
    name: "San Francisco Union Square",
    address1: "250 Post St, Suite 400",
    city: "San Francisco",
    stateCode: "CA",
    stateName: "California",
    zip: "94108",
    phone: "4155550185",
    latitude: 37.7886,
    longitude: -122.4066,
    timeZone: "Pacific Standard Time",
    priceLevel: 1.25,
    prepaid: true,
    nurses: ["Harper Wong", "Ella Fitzgerald-Cruz", "Natalie Brooks", "Ruby Chen"],
  },
  {
    code: "SEA",
    name: "Seattle Capitol Hill",
    address1: "1525 Broadway, Suite 220",
    city: "Seattle",
    stateCode: "WA",
    stateName: "Washington",
    zip: "98122",
    phone: "2065550159",
    latitude: 47.6148,
    longitude: -122.3208,
    timeZone: "Pacific Standard Time",
    priceLevel: 1.15,
    prepaid: false,
    nurses: ["Avery Lund", "Scarlett Moore", "Victoria Hale"],
  },
  {
    code: "CHI",
    name: "Chicago River North",
    address1: "445 N Wells St, Suite 302",
    city: "Chicago",
    stateCode: "IL",
    stateName: "Illinois",
    zip: "60654",
    phone: "3125550170",
    latitude: 41.8904,
    longitude: -87.6339,
    timeZone: "Central Standard Time",
    priceLevel: 1.1,
    prepaid: false,
    nurses: ["Madison Kowalski", "Abigail Novak", "Samantha Byrne", "Leah Okafor"],
  },
  {
    code: "MIA",
    name: "Miami Brickell",
    address1: "1001 Brickell Bay Dr, Suite 1500",
    city: "Miami",
    stateCode: "FL",
    stateName: "Florida",
    zip: "33131",
    phone: "3055550112",
    latitude: 25.7641,
    longitude: -80.1893,
    timeZone: "Eastern Standard Time",
    priceLevel: 1.1,
    prepaid: true,
    nurses: ["Camila Herrera", "Valentina Rojas", "Elena Marquez", "Stella Pierce"],
  },
  {
    code: "ATL",
    name: "Atlanta Buckhead",
    address1: "3280 Peachtree Rd NE, Suite 160",
    city: "Atlanta",
    stateCode: "GA",
    stateName: "Georgia",
    zip: "30305",
    phone: "4045550148",
    latitude: 33.8463,
    longitude: -84.3621,
    timeZone: "Eastern Standard Time",
    priceLevel: 1,
    prepaid: false,
    nurses: ["Aubrey Mitchell", "Jasmine Carter", "Kayla Simmons"],
  },
  {
    code: "NYC",
    name: "New York Flatiron",
    address1: "21 W 23rd St, 4th Floor",
    city: "New York",
    stateCode: "NY",
    stateName: "New York",
    zip: "10010",
    phone: "2125550196",
    latitude: 40.742,
    longitude: -73.9913,
    timeZone: "Eastern Standard Time",
    priceLevel: 1.3,
    prepaid: true,
    nurses: ["Audrey Sullivan", "Claire Donovan", "Naomi Feldman", "Hazel Romano", "Ivy Brennan"],
  },
  {
    code: "BOS",
    name: "Boston Back Bay",
    address1: "500 Boylston St, Suite 210",
    city: "Boston",
    stateCode: "MA",
    stateName: "Massachusetts",
    zip: "02116",
    phone: "6175550130",
    latitude: 42.3505,
    longitude: -71.0735,
    timeZone: "Eastern Standard Time",
    priceLevel: 1.2,
    prepaid: false,
    nurses: ["Eleanor Walsh", "Lucy O'Brien", "Anna Kessler", "Sadie Morgan"],
  },
  {
    code: "BNA",
    name: "Nashville The Gulch",
    address1: "1201 Demonbreun St, Suite 110",
    city: "Nashville",
    stateCode: "TN",
    stateName: "Tennessee",
    zip: "37203",
    phone: "6155550167",
    latitude: 36.1522,
    longitude: -86.788,
    timeZone: "Central Standard Time",
    priceLevel: 1,
    prepaid: false,
    nurses: ["Savannah Reed", "Molly Jennings", "Brooke Tatum"],
  },
];

/**
 * The weekday (0 = Sunday) a clinic's nurse has off, by their place in `nurses` (from 0): one day
 * each, so a clinic's nurses are not all free on every day.
 */
export function nurseDayOff(place: number): number {
  return ((place + 1) % 6) + 1;
}

export type SeedService = {
  code: string;
  name: string;
  category: string;
  subCategory?: string;
  description: string;
  /** Minutes the guest is in the chair. */
  duration: number;
  recoveryTime: number;
  /** List price at a clinic of price level 1. */
  price: number;
  isAddOn: boolean;
  /** Codes of the add-ons offered with this service. */
  addOns?: string[];
};

/**
 * A facial's enhancements, and the fixer the spec lists beside them. The chain's rule (15 more
 * minutes for a new client, none for a returning one) is kept by the catalog, as Zenoti books each
 * add-on at its own duration whoever the guest is: each facial version has enhancements of its
 * own, of the same names, the returning ones of no length (decision 045).
 */
const newFacialAddOns = ["ADD-DERMA", "ADD-LED", "ADD-MASK", "ADD-EYE", "FIXER"];
const returningFacialAddOns = ["ADD-DERMA-RET", "ADD-LED-RET", "ADD-MASK-RET", "ADD-EYE-RET", "FIXER"];
const lhrAreas = ["LHR-UNDERARM", "LHR-BIKINI", "LHR-LOWERLEG", "LHR-BACK"];
const partialFaceAreas = ["LHR-PF-LIP", "LHR-PF-CHIN", "LHR-PF-SIDEBURNS"];

export const seedServices: SeedService[] = [
  {
    code: "FT-NEW",
    name: "Signature Laser Facial - New Client",
    category: "Facials",
    subCategory: "Signature",
    description:
      "Our signature laser facial for first-time clients: a skin consultation, then a 15-minute laser treatment that evens tone and texture.",
    duration: 45,
    recoveryTime: 0,
    price: 275,
    isAddOn: false,
    addOns: newFacialAddOns,
  },
  {
    code: "FT-RET",
    name: "Signature Laser Facial",
    category: "Facials",
    subCategory: "Signature",
    description: "The signature 15-minute laser facial for returning clients.",
    duration: 30,
    recoveryTime: 0,
    price: 199,
    isAddOn: false,
    addOns: returningFacialAddOns,
  },
  {
    code: "PEEL-GLOW",
    name: "Glow Peel",
    category: "Peels",
    description: "A light chemical peel that lifts dull surface cells.",
    duration: 30,
    recoveryTime: 0,
    price: 150,
    isAddOn: false,
    addOns: ["PEEL-AREA-FACE", "PEEL-ADD-NECK", "PEEL-ADD-HANDS"],
  },
  {
    code: "PEEL-CLARIFY",
    name: "Clarifying Peel",
    category: "Peels",
    description: "A salicylic peel for congested and breakout-prone skin.",
    duration: 30,
    recoveryTime: 0,
    price: 175,
    isAddOn: false,
    addOns: ["PEEL-AREA-FACE", "PEEL-ADD-NECK", "PEEL-ADD-HANDS"],
  },
  {
    code: "PEEL-AREA-FACE",
    name: "Peel Area - Face",
    category: "Add-Ons",
    subCategory: "Peel",
    description: "The face, included in the peel's price.",
    duration: 0,
    recoveryTime: 0,
    price: 0,
    isAddOn: true,
  },
  {
    code: "PEEL-ADD-NECK",
    name: "Peel Area - Neck",
    category: "Add-Ons",
    subCategory: "Peel",
    description: "Extend your peel to the neck.",
    duration: 10,
    recoveryTime: 0,
    price: 50,
    isAddOn: true,
  },
  {
    code: "PEEL-ADD-HANDS",
    name: "Peel Area - Hands",
    category: "Add-Ons",
    subCategory: "Peel",
    description: "Extend your peel to the backs of the hands.",
    duration: 10,
    recoveryTime: 0,
    price: 40,
    isAddOn: true,
  },
  {
    code: "LHR",
    name: "Laser Hair Removal",
    category: "Laser Hair Removal",
    description: "Laser hair removal for the body. Choose one or more treatment areas.",
    duration: 30,
    recoveryTime: 0,
    price: 0,
    isAddOn: false,
    addOns: lhrAreas,
  },
  {
    code: "LHR-RET",
    name: "Return Client Laser Hair Removal",
    category: "Laser Hair Removal",
    description: "Follow-up laser hair removal sessions for returning clients.",
    duration: 30,
    recoveryTime: 0,
    price: 0,
    isAddOn: false,
    addOns: lhrAreas,
  },
  {
    code: "LHR-UNDERARM",
    name: "Laser Hair Removal Area - Underarms",
    category: "Add-Ons",
    subCategory: "Laser Hair Removal",
    description: "Both underarms.",
    duration: 15,
    recoveryTime: 0,
    price: 99,
    isAddOn: true,
  },
  {
    code: "LHR-BIKINI",
    name: "Laser Hair Removal Area - Bikini Line",
    category: "Add-Ons",
    subCategory: "Laser Hair Removal",
    description: "Bikini line.",
    duration: 15,
    recoveryTime: 0,
    price: 129,
    isAddOn: true,
  },
  {
    code: "LHR-LOWERLEG",
    name: "Laser Hair Removal Area - Lower Legs",
    category: "Add-Ons",
    subCategory: "Laser Hair Removal",
    description: "Both lower legs.",
    duration: 30,
    recoveryTime: 0,
    price: 249,
    isAddOn: true,
  },
  {
    code: "LHR-BACK",
    name: "Laser Hair Removal Area - Back",
    category: "Add-Ons",
    subCategory: "Laser Hair Removal",
    description: "Full back.",
    duration: 30,
    recoveryTime: 0,
    price: 279,
    isAddOn: true,
  },
  {
    code: "LHR-PF",
    name: "Laser Hair Removal - Partial Face",
    category: "Laser Hair Removal",
    subCategory: "Partial Face",
    description: "Laser hair removal for one or more small areas of the face.",
    duration: 15,
    recoveryTime: 0,
    price: 0,
    isAddOn: false,
    addOns: partialFaceAreas,
  },
  {
    code: "LHR-PF-LIP",
    name: "Partial Face Area - Upper Lip",
    category: "Add-Ons",
    subCategory: "Partial Face",
    description: "Upper lip.",
    duration: 10,
    recoveryTime: 0,
    price: 59,
    isAddOn: true,
  },
  {
    code: "LHR-PF-CHIN",
    name: "Partial Face Area - Chin",
    category: "Add-Ons",
    subCategory: "Partial Face",
    description: "Chin.",
    duration: 10,
    recoveryTime: 0,
    price: 59,
    isAddOn: true,
  },
  {
    code: "LHR-PF-SIDEBURNS",
    name: "Partial Face Area - Sideburns",
    category: "Add-Ons",
    subCategory: "Partial Face",
    description: "Both sideburns.",
    duration: 10,
    recoveryTime: 0,
    price: 69,
    isAddOn: true,
  },
  {
    code: "SCULPT",
    name: "Sculpting",
    category: "Body Sculpting",
    description: "Non-invasive muscle sculpting for the abdomen or thighs.",
    duration: 30,
    recoveryTime: 0,
    price: 300,
    isAddOn: false,
  },
  {
    code: "ADD-DERMA",
    name: "Dermaplaning Enhancement (Addon)",
    category: "Add-Ons",
    subCategory: "Enhancement",
    description: "Gentle exfoliation that removes fine facial hair before the laser.",
    duration: 15,
    recoveryTime: 0,
    price: 75,
    isAddOn: true,
  },
  {
    code: "ADD-LED",
    name: "LED Light Therapy Enhancement (Addon)",
    category: "Add-Ons",
    subCategory: "Enhancement",
    description: "Calming red-light therapy after your treatment.",
    duration: 15,
    recoveryTime: 0,
    price: 50,
    isAddOn: true,
  },
  {
    code: "ADD-MASK",
    name: "Hydrating Mask Enhancement (Addon)",
    category: "Add-Ons",
    subCategory: "Enhancement",
    description: "A cooling hyaluronic mask.",
    duration: 15,
    recoveryTime: 0,
    price: 45,
    isAddOn: true,
  },
  {
    code: "ADD-EYE",
    name: "Eye Brightening Enhancement (Addon)",
    category: "Add-Ons",
    subCategory: "Enhancement",
    description: "Targeted treatment for the under-eye area.",
    duration: 15,
    recoveryTime: 0,
    price: 60,
    isAddOn: true,
  },
  // The same enhancements with a returning client's facial: done within its time.
  {
    code: "ADD-DERMA-RET",
    name: "Dermaplaning Enhancement (Addon)",
    category: "Add-Ons",
    subCategory: "Enhancement",
    description: "Gentle exfoliation that removes fine facial hair before the laser.",
    duration: 0,
    recoveryTime: 0,
    price: 75,
    isAddOn: true,
  },
  {
    code: "ADD-LED-RET",
    name: "LED Light Therapy Enhancement (Addon)",
    category: "Add-Ons",
    subCategory: "Enhancement",
    description: "Calming red-light therapy after your treatment.",
    duration: 0,
    recoveryTime: 0,
    price: 50,
    isAddOn: true,
  },
  {
    code: "ADD-MASK-RET",
    name: "Hydrating Mask Enhancement (Addon)",
    category: "Add-Ons",
    subCategory: "Enhancement",
    description: "A cooling hyaluronic mask.",
    duration: 0,
    recoveryTime: 0,
    price: 45,
    isAddOn: true,
  },
  {
    code: "ADD-EYE-RET",
    name: "Eye Brightening Enhancement (Addon)",
    category: "Add-Ons",
    subCategory: "Enhancement",
    description: "Targeted treatment for the under-eye area.",
    duration: 0,
    recoveryTime: 0,
    price: 60,
    isAddOn: true,
  },
  {
    code: "FIXER",
    name: "Fixer",
    category: "Fixer",
    description: "A short touch-up of a recent laser facial, within 30 days of the treatment.",
    duration: 15,
    recoveryTime: 0,
    price: 0,
    isAddOn: false,
  },
  {
    code: "CONSULT",
    name: "Consultation",
    category: "Consultation",
    description: "A free 15-minute skin consultation with one of our nurses.",
    duration: 15,
    recoveryTime: 0,
    price: 0,
    isAddOn: false,
  },
];

/** Monday to Saturday; Sunday closed. Local wall-clock times. */
export const seedWorkingHours = [
  { day_of_week: 0, start_time: null, end_time: null, is_closed: true },
  { day_of_week: 1, start_time: "09:00", end_time: "19:00", is_closed: false },
  { day_of_week: 2, start_time: "09:00", end_time: "19:00", is_closed: false },
  { day_of_week: 3, start_time: "09:00", end_time: "19:00", is_closed: false },
  { day_of_week: 4, start_time: "09:00", end_time: "20:00", is_closed: false },
  { day_of_week: 5, start_time: "09:00", end_time: "18:00", is_closed: false },
  { day_of_week: 6, start_time: "10:00", end_time: "16:00", is_closed: false },
] as const;

/**
 * Promo codes, by service code; seeded into the embedded store, and into the sandbox's campaigns
 * with `campaignRules` where the back end's campaign differs.
 */
export const seedPromos = [
  {
    code: "GLOW50",
    rules: [{ discount_type: "final_price", discount_value: 50, service: "FT-NEW", service_type: "service" }],
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: 1,
  },
  {
    code: "WELCOME10",
    rules: [
      { discount_type: "percentage", discount_value: 10, service: null, service_type: "service" },
      { discount_type: "percentage", discount_value: 10, service: null, service_type: "addon-service" },
    ],
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: null,
  },
  {
    code: "ADDON20",
    rules: [{ discount_type: "amount", discount_value: 20, service: null, service_type: "addon-service" }],
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: null,
  },
  {
    code: "FIXERFREE",
    rules: [{ discount_type: "percentage", discount_value: 100, service: "FIXER", service_type: "addon-fixer" }],
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: null,
  },
  {
    code: "SUMMER15",
    rules: [{ discount_type: "percentage", discount_value: 15, service: null, service_type: "service" }],
    validFrom: "2026-06-01",
    validTo: "2026-08-31",
    maxUsesPerGuest: null,
  },
  // Our store's promo and the back end's campaign disagree (20% here, 10% at the back end), as they
  // can when one is changed and not the other: the guest is shown the back end's price before paying.
  {
    code: "PEEL20",
    rules: [{ discount_type: "percentage", discount_value: 20, service: null, service_type: "service" }],
    campaignRules: [{ discount_type: "percentage", discount_value: 10, service: null, service_type: "service" }],
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: null,
  },
  // The referral offer (the default price tier): a referred friend's first signature facial for $50, once.
  {
    code: "FT50RAF",
    rules: [{ discount_type: "final_price", discount_value: 50, service: "FT-NEW", service_type: "service" }],
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: 1,
  },
  // The $200-off promo (spec section 9): an amount off the new client's facial, once per guest.
  {
    code: "GLOW200",
    rules: [{ discount_type: "amount", discount_value: 200, service: "FT-NEW", service_type: "service" }],
    validFrom: null,
    validTo: null,
    maxUsesPerGuest: 1,
  },
] as const;

/** Promo codes added after the first seed: added to a sandbox and stores made before them too, each once. */
export const LATER_PROMO_CODES = ["GLOW200"] as const;

/**
 * The discounts guest coupons are made from (Zenoti's custom coupons), named by the description the
 * coupon carries; by service code, in dollars. The sandbox prices a coupon's invoice by them, and the
 * chain's configuration keeps the same (decision 044).
 */
export const seedCouponDiscounts = [
  {
    description: "$30 off your next Signature Laser Facial",
    rules: [
      { discount_type: "amount", discount_value: 30, service: "FT-RET", service_type: "service" },
      { discount_type: "amount", discount_value: 30, service: "FT-NEW", service_type: "service" },
    ],
  },
  {
    description: "20% off your facial enhancements",
    rules: [{ discount_type: "percentage", discount_value: 20, service: null, service_type: "addon-service" }],
  },
] as const;

/** The demo guest's coupons: one to use (expiring `expiresInDays` after the seed), and one she used. */
export const seedDemoCoupons = [
  { number: "GLOWDEMO30", description: seedCouponDiscounts[0].description, expiresInDays: 120, redeemed: false },
  { number: "GLOWDEMO20", description: seedCouponDiscounts[1].description, expiresInDays: 60, redeemed: true },
] as const;

/**
 * The price tiers (spec section 9): offer codes the back end's campaigns know, each charging a fixed
 * price for its services; partner and clinic prices are charged through them. Configuration in the
 * store (`pricing.tiers`), seeded here with the sandbox's matching campaigns.
 */
export const seedPriceTiers: { code: string; charge: number; services: string[] }[] = [
  { code: "50CHARGE", charge: 50, services: ["LHR-PF-LIP", "LHR-PF-CHIN"] },
  { code: "59CHARGE", charge: 59, services: ["LHR-PF-SIDEBURNS"] },
  { code: "75CHARGE", charge: 75, services: ["LHR-UNDERARM"] },
  { code: "100CHARGE", charge: 100, services: ["LHR-BIKINI", "PEEL-CLARIFY"] },
  { code: "150CHARGE", charge: 150, services: ["PEEL-CLARIFY", "FT-RET"] },
  { code: "200CHARGE", charge: 200, services: ["LHR-LOWERLEG", "LHR-BACK", "SCULPT"] },
];
/**
 * Offer tiers (spec section 9): a percent off per service, charged through the back end's campaign
 * of the tier's code (decision 046). The new-client facial is an offer already (0%); sculpting is
 * sold 9% off online. The 25% and 50% tiers list no treatment of this catalog.
 */
export const seedOfferTiers: { percent: number; code: string; services: string[] }[] = [
  { percent: 0, code: "OFFER0", services: ["FT-NEW"] },
  { percent: 9, code: "OFFER9", services: ["SCULPT"] },
  { percent: 25, code: "OFFER25", services: [] },
  { percent: 50, code: "OFFER50", services: [] },
];
/** A partner's prices (partnerPricing), in dollars, by service code: a partner landing shows them. */
export const seedPartners: { partnerType: string; name: string; prices: Record<string, number> }[] = [
  { partnerType: "GLOWPASS", name: "GlowPass", prices: { "FT-RET": 150, "PEEL-CLARIFY": 100 } },
];
/** Clinics' own prices (centerPricing) below the list: the Clarifying Peel at every prepaid clinic, charged through 150CHARGE. */
export const seedCenterPrices: { service: string; price: number }[] = [{ service: "PEEL-CLARIFY", price: 150 }];

/** Appointment cancellation reasons (Zenoti object_type 2, action_type 0). */
export const seedReasons = [
  "Personal",
  "Rescheduled",
  "Stuck at work",
  "Health issues",
  "Moved out of city",
  "Taking service at another location",
];

/**
 * Reasons a guest's cancel picker must leave out, as a real organisation has them: the front desk's
 * no-show reasons (action_type 1), reasons for other objects (object_type 1: a product sale), an
 * inactive one and one kept off online booking.
 */
export const seedStaffReasons = [
  { name: "Guest did not arrive", objectType: 2, actionType: 1, active: true, online: false },
  { name: "Product returned", objectType: 1, actionType: 0, active: true, online: true },
  { name: "Weather (retired)", objectType: 2, actionType: 0, active: false, online: true },
  { name: "Booked by mistake at the front desk", objectType: 2, actionType: 0, active: true, online: false },
];

/**
 * The guest that availability is read through (SPA_AVAILABILITY_GUEST_ID): a real guest record
 * with the contact data the organisation's mandatory fields ask for, as operations would set one
 * up in Zenoti. Its id is fixed so a server pointed at another copy of the sandbox can name it.
 */
export const SEED_AVAILABILITY_GUEST = {
  id: EMBEDDED_AVAILABILITY_GUEST_ID,
  centerCode: "ATX",
  firstName: "Webstore",
  lastName: "Availability",
  email: "webstore.availability@glowclinic.example",
  phone: "5125550100",
} as const;

/** The organisation's configured referral sources (Zenoti: a GUID and a name each). */
export const seedReferralSources = ["Friend or family", "Instagram", "Google search", "Webstore referral code"];

/**
 * A client of the Austin clinic with a history, to try the account pages with: the app's embedded
 * stores get her account (seed-store.ts). Her profile is what registering on the webstore sends.
 */
export const SEED_DEMO_GUEST = {
  centerCode: "ATX",
  firstName: "Sofia",
  lastName: "Marshall",
  email: "demo@glowclinic.example",
  phone: "5125550163",
  dateOfBirth: "1991-04-18",
  address: { line1: "1100 S Lamar Blvd, Apt 214", city: "Austin", zip: "78704" },
  consents: { marketingEmail: true, marketingSms: false },
} as const;

export type SeedDemoVisit = {
  /** Days from the day the sandbox is seeded; a Sunday (closed) becomes the Saturday before a past visit, the Monday after a coming one. */
  days: number;
  /** Clinic-local start, one every open day has (Saturdays open 10:00 to 16:00). */
  time: string;
  service: string;
  addOns: string[];
  /** A campaign applied to the visit's invoice. */
  offerCode?: string;
  outcome:
    | { kind: "closed" }
    | { kind: "cancelled" /** One of seedReasons. */; reason: string; comments: string }
    | { kind: "no-show"; comments: string }
    | { kind: "booked" };
};

/** The demo guest's visits, oldest first: a new client's first facial, then as a returning client. */
export const seedDemoVisits: SeedDemoVisit[] = [
  { days: -89, time: "10:00", service: "FT-NEW", addOns: ["ADD-LED"], outcome: { kind: "closed" } },
  {
    days: -59,
    time: "14:00",
    service: "FT-RET",
    addOns: [],
    outcome: { kind: "cancelled", reason: "Stuck at work", comments: "A meeting moved; I will book another day." },
  },
  {
    days: -41,
    time: "11:30",
    service: "FT-RET",
    addOns: ["ADD-MASK-RET"],
    offerCode: "ADDON20",
    outcome: { kind: "closed" },
  },
  {
    days: -22,
    time: "13:00",
    service: "FT-RET",
    addOns: [],
    outcome: { kind: "no-show", comments: "No call, no show." },
  },
  { days: 7, time: "14:30", service: "FT-RET", addOns: ["ADD-DERMA-RET"], outcome: { kind: "booked" } },
];

export type SeedMembershipPlan = {
  code: string;
  name: string;
  description: string;
  /** Dollars per billing cycle, the same at every clinic. */
  price: number;
  /** Zenoti's payment_frequency, as it sends it. */
  paymentFrequency: string;
  recurring: boolean;
  terms: string;
  /**
   * Service codes (from seedServices) the plan covers, and how many of each per cycle. Never a
   * sculpting or laser hair removal service: "Membership does not cover sculpting and laser hair
   * removal".
   */
  covers: { service: string; quantity: number }[];
  /**
   * Member prices: the percent off every other treatment and add-on of the clinic a member's visit
   * is priced with (the back end applies it to the invoice); never on sculpting or laser hair
   * removal, nor on what the plan covers.
   */
  serviceDiscountPercent: number;
};

/** The membership plans every clinic sells, in display order. */
export const seedMembershipPlans: SeedMembershipPlan[] = [
  {
    code: "GLOW-MONTHLY",
    name: "Glow Monthly",
    description: "One Signature Laser Facial every month, billed monthly.",
    price: 99,
    paymentFrequency: "1 Months",
    recurring: true,
    terms:
      "Billed every month until cancelled. One Signature Laser Facial a month; an unused facial does not carry over. Membership does not cover sculpting and laser hair removal.",
    covers: [{ service: "FT-RET", quantity: 1 }],
    serviceDiscountPercent: 10,
  },
  {
    code: "GLOW-PLUS",
    name: "Glow Plus",
    description: "A Signature Laser Facial and a Glow Peel every month, billed monthly.",
    price: 179,
    paymentFrequency: "1 Months",
    recurring: true,
    terms:
      "Billed every month until cancelled. One Signature Laser Facial and one Glow Peel a month; unused treatments do not carry over. Membership does not cover sculpting and laser hair removal.",
    covers: [
      { service: "FT-RET", quantity: 1 },
      { service: "PEEL-GLOW", quantity: 1 },
    ],
    serviceDiscountPercent: 10,
  },
  {
    code: "GLOW-ANNUAL",
    name: "Glow Annual",
    description: "Twelve Signature Laser Facials over a year, paid once.",
    price: 1068,
    paymentFrequency: "12 Months",
    recurring: false,
    terms:
      "Paid once for twelve months; it does not renew. Twelve Signature Laser Facials to use within the year. Membership does not cover sculpting and laser hair removal.",
    covers: [{ service: "FT-RET", quantity: 12 }],
    serviceDiscountPercent: 15,
  },
];

export type SeedPackage = {
  code: string;
  name: string;
  description: string;
  /** Whole dollars at a clinic of price level 1, below the sessions' single prices added up. */
  price: number;
  /** Days from the sale the sessions can be used in. */
  validityDays: number;
  /** Service codes (from seedServices) and how many sessions of each. */
  covers: { service: string; quantity: number }[];
};

/**
 * The packages every clinic sells, in display order, priced per clinic as its treatments are. The
 * facial series is of the returning client's facial: a first visit is the new client's one.
 */
export const seedPackages: SeedPackage[] = [
  {
    code: "PKG-FACIAL-3",
    name: "Signature Facial Series: 3 sessions",
    description: "Three Signature Laser Facials, to use within a year.",
    price: 537,
    validityDays: 365,
    covers: [{ service: "FT-RET", quantity: 3 }],
  },
  {
    code: "PKG-PEEL-4",
    name: "Glow Peel Series: 4 sessions",
    description: "Four Glow Peels, to use within a year.",
    price: 520,
    validityDays: 365,
    covers: [{ service: "PEEL-GLOW", quantity: 4 }],
  },
  {
    code: "PKG-LHR-SMALL-6",
    name: "Laser Hair Removal Small Area: 6 sessions",
    description: "Six laser hair removal sessions for a small area, the underarms, to use within a year.",
    price: 479,
    validityDays: 365,
    covers: [{ service: "LHR-UNDERARM", quantity: 6 }],
  },
];

/**
 * Gift cards last five years from the day they are issued (the US CARD Act's floor for gift
 * cards), as the clinics' templates set them.
 */
export const GIFT_CARD_VALIDITY_DAYS = 1825;

/**
 * The gift-card templates every clinic sells, in display order: presets whose price is their value,
 * and one the buyer names the amount of (dollars, cents allowed) between its minimum and maximum.
 */
export const seedGiftCardTemplates: ({ code: string; name: string } & (
  | { value: number }
  | { custom: { min: number; max: number } }
))[] = [
  { code: "GC-50", name: "$50 Gift Card", value: 50 },
  { code: "GC-100", name: "$100 Gift Card", value: 100 },
  { code: "GC-150", name: "$150 Gift Card", value: 150 },
  { code: "GC-250", name: "$250 Gift Card", value: 250 },
  { code: "GC-ANY", name: "Any amount", custom: { min: 25, max: 1000 } },
];

/** The organisation's gift-card occasions (no card images are set up). */
export const seedGiftCardOccasions = ["Birthday", "Thank you", "Holidays", "Just because"];

/**
 * The demo guest's membership: Glow Monthly at her clinic, active (1) and renewing (recurrence 1),
 * since her first visit (`visit`, an index into seedDemoVisits), with a month's service credit. The
 * visits after that one are priced as a member's (the plan's member prices, where a promo is not more).
 */
export const SEED_DEMO_MEMBERSHIP = {
  plan: "GLOW-MONTHLY",
  visit: 0,
  status: 1,
  recurrenceStatus: 1,
  serviceCredit: 99,
} as const;

/**
 * Her loyalty points, earned on the days of her completed visits (`visit`, an index into
 * seedDemoVisits; each must be a closed one): 2,450 in all.
 */
export const seedDemoPoints = [
  { visit: 0, points: 500, reason: "Welcome bonus: Glow Monthly" },
  { visit: 0, points: 1100, reason: "Earned at your visit: Signature Laser Facial - New Client" },
  { visit: 2, points: 850, reason: "Earned at your visit: Signature Laser Facial" },
] as const;
