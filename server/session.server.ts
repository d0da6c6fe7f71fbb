import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { parse as parseCookie, serialize as serializeCookie } from "cookie";
import { createSession, type Session, type SessionStorage } from "react-router";

export type Toast = { id: string; type: "success" | "error" | "info"; title: string; description?: string };

/** What the cookie carries. The booking draft and the signed-in user's session id join later. */
export type SessionData = {
  /** Id of a server-side session record of a signed-in user. */
  userSessionId?: string;
  /** The booking in progress. */
  draft?: Record<string, unknown>;
  /** The last booking confirmed in this browser. */
  confirmed?: Record<string, unknown>;
  /** A new time held for a visit being moved (server/appointments/reschedule.server.ts). */
  reschedule?: Record<string, unknown>;
  /** The email a one-time code was asked for, between the forgot and reset pages. */
  resetEmail?: string;
  /** Where the visit came from: a referral code, a partner, an ad click, a landing tag (~/domain/attribution). */
  visit?: Record<string, unknown>;
};
export type SessionFlash = {
  toast: Toast;
  /** Why a booking ended without an appointment (server/booking/not-booked.server.ts). */
  notBooked: Record<string, unknown>;
};
export type AppSession = Session<SessionData, SessionFlash>;

/** The spec's session cookie lasts 90 days. */
export const SESSION_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const VERSION = "v1";

function deriveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "clinic-webstore/session", "aes-256-gcm cookie key", 32));
}

/**
 * AES-256-GCM: the cookie is encrypted and authenticated, so it reveals nothing when decoded and
 * any change to it makes it unreadable. The first secret encrypts; every secret decrypts, so a new
 * secret can be put first while cookies made with the old one still open.
 */
export function createCookieCipher(secrets: string[], associatedData: string) {
  if (secrets.length === 0) throw new Error("at least one session secret is required");
  const keys = secrets.map(deriveKey);
  const aad = Buffer.from(associatedData);
  return {
    seal(plaintext: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", keys[0], iv);
      cipher.setAAD(aad);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
    },
    /** Null for anything that was not sealed by one of our secrets, unchanged. */
    open(sealed: string): string | null {
      if (!sealed.startsWith(`${VERSION}.`)) return null;
      const raw = Buffer.from(sealed.slice(VERSION.length + 1), "base64url");
      if (raw.length < IV_BYTES + TAG_BYTES) return null;
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const body = raw.subarray(IV_BYTES + TAG_BYTES);
      for (const key of keys) {
        try {
          const decipher = createDecipheriv("aes-256-gcm", key, iv);
          decipher.setAAD(aad);
          decipher.setAuthTag(tag);
          return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
        } catch {
          // Not this key; try the next.
        }
      }
      return null;
    },
  };
}

export type SessionOptions = { secrets: string[]; secure: boolean; name?: string };

/**
 * The sealed value is the cookie's value as it is: base64url needs no further encoding, so the
 * cookie is a third larger than the data, not twice (decision 014).
 */
export function createEncryptedSessionStorage(options: SessionOptions): SessionStorage<SessionData, SessionFlash> {
  const name = options.name ?? "__session";
  const cipher = createCookieCipher(options.secrets, name);
  const attributes = { httpOnly: true, sameSite: "lax", secure: options.secure, path: "/" } as const;

  return {
    async getSession(cookieHeader) {
      let data: Record<string, unknown> = {};
      try {
        const sealed = cookieHeader ? parseCookie(cookieHeader)[name] : undefined;
        const plaintext = sealed ? cipher.open(sealed) : null;
        const parsed: unknown = plaintext ? JSON.parse(plaintext) : null;
        if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
      } catch {
        // A tampered or foreign cookie is an empty session, never an error.
      }
      return createSession<SessionData, SessionFlash>(data as SessionData);
    },
    async commitSession(session, serializeOptions) {
      return serializeCookie(name, cipher.seal(JSON.stringify(session.data)), {
        ...attributes,
        maxAge: SESSION_MAX_AGE_SECONDS,
        ...serializeOptions,
      });
    },
    async destroySession(_session, serializeOptions) {
      return serializeCookie(name, "", { ...attributes, ...serializeOptions, maxAge: undefined, expires: new Date(0) });
    },
  };
}

/** The two cookies a visitor with a session carries: sign-in state, and a booking in progress. */
export const SESSION_COOKIE_NAMES = ["__session", "__booking"] as const;

/** What the booking cookie holds; everything else goes in the session cookie. */
const BOOKING_KEYS = new Set<string>(["draft", "confirmed"]);

/** The session as two encrypted cookies: read as one session, written part by part when changed. */
export type SessionCookies = {
  read(cookieHeader: string | null): Promise<AppSession>;
  /** Set-Cookie headers for the parts that changed since `read`; none when nothing did. */
  write(session: AppSession): Promise<string[]>;
};

/**
 * A booking in progress is kept apart from the sign-in state: each cookie stays under the 4096
 * bytes browsers keep, with every field of the largest draft at its limit (decision 014).
 */
export function createSessionCookies(options: Omit<SessionOptions, "name">): SessionCookies {
  const parts = [
    {
      storage: createEncryptedSessionStorage({ ...options, name: SESSION_COOKIE_NAMES[0] }),
      holds: (key: string) => !BOOKING_KEYS.has(key),
    },
    {
      storage: createEncryptedSessionStorage({ ...options, name: SESSION_COOKIE_NAMES[1] }),
      holds: (key: string) => BOOKING_KEYS.has(key),
    },
  ];
  const split = (data: Record<string, unknown>) =>
    parts.map((part) => JSON.stringify(Object.fromEntries(Object.entries(data).filter(([key]) => part.holds(key)))));
  const asRead = new WeakMap<AppSession, string[]>();
  return {
    async read(cookieHeader) {
      const opened = await Promise.all(parts.map((part) => part.storage.getSession(cookieHeader)));
      const data = Object.assign(
        {},
        ...opened.map((session, i) =>
          Object.fromEntries(Object.entries(session.data).filter(([key]) => parts[i].holds(key))),
        ),
      );
      const session = createSession<SessionData, SessionFlash>(data);
      asRead.set(session, split(session.data));
      return session;
    },
    async write(session) {
      const before = asRead.get(session);
      const now = split(session.data);
      const headers: string[] = [];
      for (const [i, part] of parts.entries()) {
        if (before?.[i] === now[i]) continue;
        const empty = now[i] === "{}";
        const partSession = createSession<SessionData, SessionFlash>(JSON.parse(now[i]));
        headers.push(
          empty ? await part.storage.destroySession(partSession) : await part.storage.commitSession(partSession),
        );
      }
      asRead.set(session, now);
      return headers;
    },
  };
}
