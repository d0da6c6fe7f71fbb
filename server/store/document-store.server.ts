import type { Stores } from "./stores.server";

export {
  decideClaim,
  DuplicateAccountError,
  emailKey,
  FINAL_ATTEMPT_STATES,
  isFinalAttempt,
  type AccountRecord,
  type CenterPrice,
  type GuestDetails,
  type OneTimeCodeRecord,
  type PaymentAttempt,
  type PaymentAttemptClaim,
  type PaymentAttemptState,
  type UserSessionRecord,
} from "./stores.server";

/** The one-interface view of the store ports, for the callers not yet moved to `Stores`; to be removed. */
export type DocumentStore = ReturnType<typeof documentStoreOver>;

export function documentStoreOver(stores: Stores) {
  const { guestDetails, centerPricing, promoCodes, accounts, userSessions, oneTimeCodes, paymentAttempts } = stores;
  return {
    kind: stores.kind,
    getGuestDetails: guestDetails.get,
    createGuestDetails: guestDetails.create,
    updateGuestDetails: guestDetails.update,
    adjustPromoCodeCount: (email: string, code: string, _delta: -1) => guestDetails.releasePromoUse(email, code),
    claimPromoUse: guestDetails.claimPromoUse,
    getCenterPricing: centerPricing.get,
    putCenterPrice: centerPricing.put,
    getPromoCode: promoCodes.get,
    putPromoCode: promoCodes.put,
    claimPaymentAttempt: paymentAttempts.claim,
    savePaymentAttempt: paymentAttempts.save,
    getPaymentAttempt: paymentAttempts.get,
    listStalePaymentAttempts: paymentAttempts.listStale,
    createAccount: accounts.create,
    getAccountByEmail: accounts.getByEmail,
    getAccountById: accounts.getById,
    updateAccountPassword: accounts.updatePassword,
    createUserSession: userSessions.create,
    getUserSession: userSessions.get,
    revokeUserSession: userSessions.revoke,
    revokeUserSessions: userSessions.revokeAllOfUser,
    putOneTimeCode: oneTimeCodes.put,
    getOneTimeCode: oneTimeCodes.get,
    countOneTimeCodeAttempt: oneTimeCodes.countWrongGuess,
    deleteOneTimeCode: oneTimeCodes.delete,
    close: stores.close,
  };
}
