import { z } from "zod";
import { defineSchema } from "~/lib/define-schema";

/** The cancel form (spec section 5: the reason is asked and a comment is required). */
export const CANCEL_MESSAGES = {
  reason: "Please choose a reason.",
  comment: "Please add a comment",
  commentTooLong: "Please keep your comment under 500 characters.",
} as const;

export const CancelVisitSchema = defineSchema(() =>
  z.object({
    reasonId: z
      .string({ error: CANCEL_MESSAGES.reason })
      .trim()
      .min(1, CANCEL_MESSAGES.reason)
      .max(64, CANCEL_MESSAGES.reason),
    comment: z
      .string({ error: CANCEL_MESSAGES.comment })
      .trim()
      .min(1, CANCEL_MESSAGES.comment)
      .max(500, CANCEL_MESSAGES.commentTooLong),
  }),
);
