/**
 * The headers of a page whose address holds a signed link's token (a visit's manage link, a booking
 * recovery link): never kept in a shared cache, and sent as a referrer to this site only. Not
 * "no-referrer": with it a browser sends `Origin: null` on the page's own form posts, which a
 * cross-site check must refuse.
 */
export const LINK_PAGE_HEADERS = { "Referrer-Policy": "same-origin", "Cache-Control": "private, no-store" } as const;
