import { createHash, randomBytes, randomUUID } from "node:crypto";
import { BIRTH_DATE_MESSAGES, GENDER_REQUIRED } from "~/domain/account-forms";
import { ACCOUNT_MESSAGES, isDuplicateMessage, sameFirstName } from "~/domain/accounts";
import { guestTags } from "~/domain/attribution";
import type { AccountResult, AccountService, CurrentUser, Registration, Services } from "../services";
import { logger } from "../observability/logger.server";
import { SESSION_MAX_AGE_SECONDS } from "../session.server";
import { isSpaError } from "../spa/errors.server";
import { recordAffiliateClick } from "../referrals/affiliates.server";
import {
  checkReferralFor,
  noteReferredGuest,
  recordReferral,
  referralNotRecordedMessage,
  releaseReferral,
} from "../referrals/referrals.server";
import { DuplicateAccountError, type AccountRecord, type ReferralCodeRecord } from "../store/stores.server";
import { adoptExistingGuest } from "./existing-guest.server";
import { checkOneTimeCode, sendOneTimeCode } from "./one-time-codes.server";
import { hashPassword, needsRehash, passwordCost, verifyPassword } from "./passwords.server";

export { CODE_MAX_ATTEMPTS, CODE_RESEND_COOLDOWN_MS, CODE_TTL_MS } from "./one-time-codes.server";

const DUPLICATE = { ok: false as const, field: "email", message: ACCOUNT_MESSAGES.duplicate };

function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Accounts: our own records (hashed passwords, sessions, one-time codes) in the stores,
 * each linked to a spa guest. The password never leaves this service.
 */
export function createAccountService(services: Services, clock: () => number = Date.now): AccountService {
  const { spa } = services;
  const { accounts, userSessions, guestDetails } = services.stores;
  const cost = passwordCost(services.env.PASSWORD_HASH_COST);

  async function startSession(account: AccountRecord): Promise<string> {
    const token = randomBytes(32).toString("base64url");
    await userSessions.create({
      tokenHash: tokenHash(token),
      userId: account.id,
      createdAt: clock(),
      expiresAt: clock() + SESSION_MAX_AGE_SECONDS * 1000,
      revoked: false,
    });
    return token;
  }

  /** Makes the new guest (naming the referrer when there is one) and the account, and signs them in. */
  async function registerNewGuest(
    input: Registration,
    referrer: ReferralCodeRecord | null,
  ): Promise<AccountResult<{ token: string; user: CurrentUser }>> {
    const tags = guestTags({ landingPageTag: input.attribution?.tag, stage: "profile" });
    let guestId: string;
    try {
      const newGuest = {
        centerId: input.centerId,
        firstName: input.firstName,
        lastName: input.lastName,
        email: input.email,
        phone: input.phone,
        address: { line1: input.address, city: input.city, zip: input.zip },
        birthDate: input.birthDate,
        gender: input.gender,
        language: input.language,
        consents: {
          marketingEmail: input.marketingEmail,
          marketingSms: input.marketingSms,
          transactionalEmail: true,
          transactionalSms: true,
        },
        tags,
        // Zenoti files a guest under a configured referral source and the guest who referred them;
        // the code itself stays with us.
        referralSourceId: referrer ? (services.env.SPA_REFERRAL_SOURCE_ID ?? null) : null,
        referredByGuestId: referrer?.guestId ?? null,
      };
      // A referrer's guest the back end no longer knows (merged, deleted) must not lock the friend
      // out: the guest is made without it, and the referral still counts here.
      const guest = await spa.createGuest(newGuest).catch((error: unknown) => {
        if (
          !newGuest.referredByGuestId ||
          !isSpaError(error) ||
          error.kind !== "rejected" ||
          !/referr/i.test(error.message)
        )
          throw error;
        logger.warn("referrer unknown to the back end; guest made without it", { code: String(error.code) });
        return spa.createGuest({ ...newGuest, referralSourceId: null, referredByGuestId: null });
      });
      guestId = guest.id;
    } catch (error) {
      if (!isSpaError(error) || error.kind !== "rejected") throw error;
      if (String(error.code) === "442" || isDuplicateMessage(error.message)) return DUPLICATE;
      if (String(error.code) === "443")
        return {
          ok: false,
          field: "email",
          message: "The email address you entered is not valid. Please check the email and try again",
        };
      if (String(error.code) === "482")
        return {
          ok: false,
          field: "phone",
          message: "Mobile number you entered is not valid. Please check the number and try again",
        };
      // The organisation made a field mandatory that the guest may leave empty here (Zenoti's 481).
      if (String(error.code) === "481" && /date_of_birth/.test(error.message))
        return { ok: false, field: "birthDate", message: BIRTH_DATE_MESSAGES.required };
      if (String(error.code) === "481" && /gender/.test(error.message))
        return { ok: false, field: "gender", message: GENDER_REQUIRED };
      return { ok: false, field: "form", message: error.message };
    }
    // The guest names the referrer from now on, and so does the friend's referral.
    if (referrer) await noteReferredGuest(services, input.email, guestId);
    const account: AccountRecord = {
      id: randomUUID(),
      email: input.email,
      guestId,
      centerId: input.centerId,
      passwordHash: await hashPassword(input.password, cost),
      createdAt: clock(),
      passwordChangedAt: clock(),
      referralCode: referrer?.code ?? null,
    };
    try {
      await accounts.create(account);
    } catch (error) {
      if (error instanceof DuplicateAccountError) return DUPLICATE;
      throw error;
    }
    if (await guestDetails.get(input.email)) await guestDetails.update(input.email, { is_password_set: true });
    else
      await guestDetails.create({
        email: input.email,
        guest_id: guestId,
        is_password_set: true,
        is_return_user: false,
      });
    // Reported and rethrown by the affiliate update (the spec); the registration stands.
    if (input.attribution?.click)
      await recordAffiliateClick(services, { guestId, email: input.email, click: input.attribution.click }).catch(
        () => undefined,
      );
    const token = await startSession(account);
    services.analytics.record({
      name: "account_registered",
      userId: account.id,
      properties: { centerId: account.centerId, email: account.email, phone: input.phone },
    });
    // A new guest made here is a lead for the chain's marketing (in the background; never blocks).
    services.leads.send({
      kind: "registration",
      firstName: input.firstName,
      lastName: input.lastName,
      email: input.email,
      phone: input.phone,
      centerId: input.centerId,
      guestId,
      tags,
    });
    return {
      ok: true,
      value: { token, user: { id: account.id, email: account.email, guestId, centerId: account.centerId } },
    };
  }

  return {
    /** The signed-in user of a session token, or null (expired, revoked, unknown). */
    async currentUser(token: string | null | undefined): Promise<CurrentUser | null> {
      if (!token) return null;
      const session = await userSessions.get(tokenHash(token));
      if (!session || session.revoked || session.expiresAt <= clock()) return null;
      const account = await accounts.getById(session.userId);
      return account
        ? { id: account.id, email: account.email, guestId: account.guestId, centerId: account.centerId }
        : null;
    },

    async register(input: Registration): Promise<AccountResult<{ token: string; user: CurrentUser }>> {
      if (await accounts.getByEmail(input.email)) return DUPLICATE;
      // A client the clinics already know (or a guest of an earlier booking) sets their first
      // password with a code sent to the contact on file; a second guest record is never made.
      const existing = await adoptExistingGuest(services, input.email);
      if (existing) {
        const phone = (await spa.getGuest(existing.guest_id).catch(() => null))?.phone ?? null;
        await sendOneTimeCode(services, input.email, { email: input.email, phone }, clock);
        return { ok: false, field: "email", message: ACCOUNT_MESSAGES.recordFound, existingGuest: true };
      }
      // Someone the clinics know by this mobile number and first name (a client who booked with
      // another email): the same person, most likely. They are told how to get into that record
      // rather than given a second one; the other email is not shown.
      const sameMobile = await spa.findGuestsByPhone(input.phone, input.centerId);
      if (sameMobile.some((guest) => sameFirstName(guest.firstName, input.firstName))) {
        return { ok: false, field: "phone", message: ACCOUNT_MESSAGES.sameFirstNameDuplicate };
      }
      // A referral code is checked before the guest is made: the back end's record names the referrer.
      const referral = input.referralCode
        ? await checkReferralFor(services, input.referralCode, {
            email: input.email,
            phone: input.phone,
            isNewClient: true,
          })
        : null;
      if (referral && !referral.ok) return { ok: false, field: "referralCode", message: referral.message };
      if (!referral) return registerNewGuest(input, null);
      // The friend takes one of the code's places before anything is made: a code used up since the
      // check refuses them here, with what they typed kept (decision 038). A registration that
      // does not go through gives the place back.
      const claimed = await recordReferral(
        services,
        referral.owner,
        { email: input.email, firstName: input.firstName, guestId: null },
        clock(),
      );
      if (claimed !== "added")
        return { ok: false, field: "referralCode", message: referralNotRecordedMessage(claimed) };
      let registered: AccountResult<{ token: string; user: CurrentUser }> | undefined;
      try {
        registered = await registerNewGuest(input, referral.owner);
        return registered;
      } finally {
        // Only a claim that never got its guest is taken back (a guest made names the referrer).
        if (!registered?.ok) await releaseReferral(services, referral.owner, input.email);
      }
    },

    async login(email: string, password: string): Promise<AccountResult<{ token: string; user: CurrentUser }>> {
      const account = await accounts.getByEmail(email);
      if (!account) {
        // Booked here or known at the clinics, but no password yet: offered a code to set one.
        const guest = (await guestDetails.get(email)) ?? (await adoptExistingGuest(services, email));
        if (guest && !guest.is_password_set)
          return { ok: false, field: "email", message: ACCOUNT_MESSAGES.setPasswordFirst, existingGuest: true };
        return { ok: false, field: "email", message: ACCOUNT_MESSAGES.noAccount };
      }
      if (!(await verifyPassword(password, account.passwordHash)))
        return { ok: false, field: "password", message: ACCOUNT_MESSAGES.wrongPassword };
      if (needsRehash(account.passwordHash, cost)) {
        // A hash from before the current scrypt parameters: the password is known now, so store a
        // stronger one. The change date stays: the password itself did not change.
        await accounts
          .updatePassword(account.id, await hashPassword(password, cost), account.passwordChangedAt)
          .catch((error: Error) => logger.warn("password hash not upgraded", { error: error.message }));
      }
      const token = await startSession(account);
      services.analytics.record({ name: "signed_in", userId: account.id, properties: { method: "password" } });
      return {
        ok: true,
        value: {
          token,
          user: { id: account.id, email: account.email, guestId: account.guestId, centerId: account.centerId },
        },
      };
    },

    async logout(token: string | null | undefined): Promise<void> {
      if (token) await userSessions.revoke(tokenHash(token));
    },

    /** Changes the password; every other session of the user is signed out. */
    async changePassword(
      user: CurrentUser,
      token: string,
      oldPassword: string,
      newPassword: string,
    ): Promise<AccountResult<null>> {
      const account = await accounts.getById(user.id);
      if (!account || !(await verifyPassword(oldPassword, account.passwordHash))) {
        return { ok: false, field: "oldPassword", message: ACCOUNT_MESSAGES.oldPassword };
      }
      await accounts.updatePassword(account.id, await hashPassword(newPassword, cost), clock());
      await userSessions.revokeAllOfUser(account.id, tokenHash(token));
      return { ok: true, value: null };
    },

    /**
     * Sends a one-time code by email (and by text when the guest has a mobile number) to an account,
     * a guest of the guest flow, or a client the back end knows by this email. The caller answers
     * the same either way.
     */
    async sendResetCode(email: string): Promise<"sent" | "cooldown" | "unknown"> {
      const account = await accounts.getByEmail(email);
      const guest = account ? null : ((await guestDetails.get(email)) ?? (await adoptExistingGuest(services, email)));
      if (!account && !guest) return "unknown";
      const guestId = account?.guestId ?? guest?.guest_id;
      const phone = guestId ? ((await spa.getGuest(guestId).catch(() => null))?.phone ?? null) : null;
      return sendOneTimeCode(services, email, { email, phone }, clock);
    },

    /** Checks the code and sets the password (the first one, for a guest-flow guest). */
    async resetPassword(email: string, code: string, newPassword: string): Promise<AccountResult<null>> {
      const checked = await checkOneTimeCode(services, email, code, clock);
      if (!checked.ok) return { ok: false, field: "code", message: checked.message };
      const passwordHash = await hashPassword(newPassword, cost);
      const account = await accounts.getByEmail(email);
      if (account) {
        await accounts.updatePassword(account.id, passwordHash, clock());
        await userSessions.revokeAllOfUser(account.id);
      } else {
        const guest = await guestDetails.get(email);
        if (!guest)
          return { ok: false, field: "code", message: "That code is not valid. Please check it or request a new one." };
        const spaGuest = await spa.getGuest(guest.guest_id).catch(() => null);
        await accounts.create({
          id: randomUUID(),
          email,
          guestId: guest.guest_id,
          centerId: spaGuest?.centerId ?? "",
          passwordHash,
          createdAt: clock(),
          passwordChangedAt: clock(),
        });
      }
      await guestDetails
        .update(email, { is_password_set: true })
        .catch((error: Error) => logger.warn("guestDetails not updated", { error: error.message }));
      return { ok: true, value: null };
    },
  };
}
