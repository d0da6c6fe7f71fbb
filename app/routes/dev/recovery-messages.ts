import { data } from "react-router";
import { sendRecoveryMessages } from "#server/booking/recovery.server";
import type { Route } from "./+types/recovery-messages";

/**
 * Runs the recovery messages' pass now (decision 059), for the browser tests: the pass runs by
 * itself every minute, and a test waits for no clock. As the outbox page, it exists only on the
 * embedded setup and answers only requests from this machine; anything else is the plain 404.
 */
export async function action({ context }: Route.ActionArgs) {
  const { services, fromThisMachine } = context;
  if (!services.env.DEV_OUTBOX || (!fromThisMachine && !services.env.DEV_OUTBOX_ALLOW_REMOTE))
    throw data("Not found", { status: 404 });
  return { sent: await sendRecoveryMessages(services) };
}

export function loader() {
  throw data("Not found", { status: 404 });
}
