import type { Submission } from "@conform-to/react";
import { href, redirect, redirectDocument } from "react-router";
import { BuyItemSchema, PURCHASE_MESSAGES } from "~/domain/purchases";
import { formDataOf, parseSubmission, refuseForm } from "#server/forms.server";
import { buyItem, type BuyOutcome } from "#server/purchases/buy.server";
import type { StepOutcome } from "#server/purchases/purchase.server";
import { currentUser, type RequestContext } from "#server/request-context.server";
import { siteOrigin } from "#server/site.server";
import { redirectWithToast } from "#server/toast.server";
import { guardAction } from "#server/unavailable.server";

/**
 * How the buying pages answer (memberships, packages, gift cards, and the purchase's own return
 * pages): the use cases in `server/purchases/` say what happened, these say it over HTTP.
 */

/** A step of a purchase: the back end's page (a document of its own), or the purchase's page. */
export function stepAnswer(step: StepOutcome): Response {
  if (step.kind === "redirect") return redirectDocument(step.uri);
  return redirect(href("/purchases/:id", { id: step.purchase.id }));
}

/** Sign-in first, coming back to `backTo`. */
export function signInToBuy(context: RequestContext, backTo: string): Response {
  return redirectWithToast(context, `${href("/login")}?redirectTo=${encodeURIComponent(backTo)}`, {
    type: "info",
    title: PURCHASE_MESSAGES.signIn,
  });
}

/**
 * "Buy" answered: the purchase's first step, sign-in first (back to `backTo`), or the form refused
 * with its status and the words for it; `intent` says which of the page's forms it answers.
 */
export function buyAnswer<Intent extends string | undefined>(
  context: RequestContext,
  submission: Submission<unknown, string[], unknown>,
  outcome: BuyOutcome,
  { intent, backTo }: { intent: Intent; backTo: string },
) {
  switch (outcome.kind) {
    case "step":
      return stepAnswer(outcome.step);
    case "sign-in":
      return signInToBuy(context, backTo);
    case "refused":
      return refuseForm(submission, {
        status: outcome.status,
        formErrors: outcome.formErrors,
        fieldErrors: outcome.fieldErrors,
        intent,
      });
  }
}

/**
 * The action of a page that lists items to buy, one form each (memberships, packages): sign in
 * first, then the back end's sale, paid on its hosted card page; back to `page` for the clinic.
 */
export function buyItemAction(kind: "membership" | "package", page: "/memberships" | "/packages") {
  return guardAction(async ({ request, context }: { request: Request; context: RequestContext }) => {
    const formData = await formDataOf(request);
    const submission = parseSubmission(formData, BuyItemSchema);
    // Each item's form answers for itself: its id says which.
    const intent = typeof formData.get("itemId") === "string" ? String(formData.get("itemId")) : undefined;
    if (submission.status !== "success") return refuseForm(submission, { intent });
    const outcome = await buyItem(context.services, {
      kind,
      user: await currentUser(context),
      form: submission.value,
      origin: siteOrigin(request, context),
    });
    return buyAnswer(context, submission, outcome, {
      intent,
      backTo: `${href(page)}?clinic=${encodeURIComponent(submission.value.clinic)}`,
    });
  });
}
