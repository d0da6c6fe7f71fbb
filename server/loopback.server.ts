import type { IncomingMessage } from "node:http";

/**
 * Headers a proxy adds. A reverse proxy on this machine connects from loopback on behalf of
 * clients anywhere, so a loopback peer that carries one of them is not "this machine".
 */
const PROXY_HEADERS = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-real-ip", "via"];

/** 127.0.0.0/8 and ::1, also written as IPv4-mapped IPv6 (::ffff:127.0.0.1). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.toLowerCase().startsWith("::ffff:") ? address.slice(7) : address;
  return plain === "::1" || /^127(\.\d{1,3}){3}$/.test(plain);
}

/**
 * True when the request was sent from this machine itself: the TCP peer is loopback and no proxy
 * says it forwarded it. Deliberately not `req.ip`: the app trusts X-Forwarded-For from the proxies
 * `TRUST_PROXY` names, so a host behind one of them could claim to be 127.0.0.1 through it.
 */
export function isFromThisMachine(req: Pick<IncomingMessage, "headers" | "socket">): boolean {
  return isLoopbackAddress(req.socket.remoteAddress) && !PROXY_HEADERS.some((name) => req.headers[name] !== undefined);
}
