import { data } from "react-router";
import { logger } from "#server/observability/logger.server";
import type { Route } from "./+types/outbox";

export const meta: Route.MetaFunction = () => [
  { title: "Outbox (development) | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

/**
 * The messages the embedded notifier would have sent, one-time codes included: whoever reads this
 * page can take any account. It exists only on the embedded setup (DEV_OUTBOX, never with a real
 * back end) and answers only requests from this machine unless DEV_OUTBOX_ALLOW_REMOTE is set.
 * Anything else is the plain 404 page, so the page does not reveal that it exists.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, fromThisMachine } = context;
  const { DEV_OUTBOX, DEV_OUTBOX_ALLOW_REMOTE } = services.env;
  if (!DEV_OUTBOX) throw data("Not found", { status: 404 });
  if (!fromThisMachine && !DEV_OUTBOX_ALLOW_REMOTE) {
    logger.info("outbox refused: not a request from this machine (see DEV_OUTBOX_ALLOW_REMOTE)");
    throw data("Not found", { status: 404 });
  }
  const messages = await services.notifier.recent(50);
  return { messages, openToEveryone: DEV_OUTBOX_ALLOW_REMOTE };
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  return (
    <section className="page">
      <h1>Outbox</h1>
      <p className="muted">Messages the app sent while running on its embedded defaults, newest first.</p>
      <p className="muted">
        {loaderData.openToEveryone
          ? "Anyone who can reach this app can read this page (DEV_OUTBOX_ALLOW_REMOTE is set), one-time codes included. Use it only on a private test server."
          : "This page answers only requests made on this machine, never through a proxy, and it is never available with a real back end."}
      </p>
      {loaderData.messages.length === 0 ? <p>No messages yet.</p> : null}
      <ol className="outbox">
        {loaderData.messages.map((m) => (
          <li key={m.id}>
            <p>
              <strong>{m.channel === "email" ? "Email" : "Text"}</strong> to <span className="recipient">{m.to}</span> ·{" "}
              {m.kind} · <time dateTime={m.createdAt}>{m.createdAt}</time>
            </p>
            <p>
              <strong>{m.subject}</strong>
            </p>
            <pre>{m.body}</pre>
          </li>
        ))}
      </ol>
    </section>
  );
}
