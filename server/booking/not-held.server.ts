import type { Submission } from "@conform-to/react";
import { href } from "react-router";
import { busyHoldMessage, SLOT_TAKEN } from "~/domain/booking";
import { downtimeMessage, FIXER_NEEDS_FACIAL } from "~/domain/downtime";
import { refuseForm } from "../forms.server";
import type { RequestContext } from "../request-context.server";
import type { AppSession } from "../session.server";
import { redirectWithToast } from "../toast.server";
import { OUTAGE_MESSAGE } from "../unavailable.server";
import { setDraft } from "./draft.server";
import type { HoldOutcome } from "./hold-slot.server";

/**
 * The answer of a step that held the chosen time after the visitor's details (details, verify)
 * when it could not: a limit or an outage keeps the form as typed; a taken time or medical downtime
 * sends the visitor back to choose another time, now as a known guest whose next choice is held at once.
 */
export function afterNotHeld(
  context: RequestContext,
  session: AppSession,
  submission: Submission<unknown, string[], unknown>,
  outcome: Exclude<HoldOutcome, { kind: "held" | "refused" }>,
) {
  const draft = { ...outcome.draft, slot: undefined };
  const timeStep = `${href("/appointment/time")}?date=${draft.date ?? ""}`;
  // Kept whatever happened: a guest record made or proven on the way is used by the next attempt.
  setDraft(session, outcome.draft);
  switch (outcome.kind) {
    case "too-many":
      return refuseForm(submission, {
        status: 429,
        formErrors: [outcome.message],
        headers: { "Retry-After": String(outcome.retryAfterSeconds) },
      });
    case "busy":
      // At the call limit before anything was held: the form keeps what was typed, and says when to send it again.
      return refuseForm(submission, {
        status: 503,
        formErrors: [busyHoldMessage(outcome.retryAfterSeconds)],
        headers: { "Retry-After": String(outcome.retryAfterSeconds) },
      });
    case "unavailable":
      return refuseForm(submission, { status: 503, formErrors: [OUTAGE_MESSAGE] });
    case "taken":
      setDraft(session, draft);
      return redirectWithToast(context, timeStep, { type: "error", title: SLOT_TAKEN });
    case "downtime":
      setDraft(session, draft);
      // The time step shows the refused day with its reason and a link to the first possible date.
      return redirectWithToast(context, timeStep, { type: "error", title: downtimeMessage(outcome.refusal) });
    case "fixer-alone":
      // Back to the treatments, where the fixer can be added to a facial.
      setDraft(session, draft);
      return redirectWithToast(context, `${href("/appointment/service")}?id=${encodeURIComponent(draft.centerId)}`, {
        type: "error",
        title: FIXER_NEEDS_FACIAL,
      });
  }
}

/** What to tell a visitor sent back to the time step when their time could not be held. */
export function notHeldMessage(outcome: Exclude<HoldOutcome, { kind: "held" }>): string {
  switch (outcome.kind) {
    case "too-many":
      return outcome.message;
    case "busy":
      return busyHoldMessage(outcome.retryAfterSeconds);
    case "taken":
      return SLOT_TAKEN;
    case "downtime":
      return downtimeMessage(outcome.refusal);
    case "fixer-alone":
      return FIXER_NEEDS_FACIAL;
    case "refused":
    case "unavailable":
      return OUTAGE_MESSAGE;
  }
}
