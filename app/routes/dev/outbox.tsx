import { data } from "react-router";
import type { Route } from "./+types/outbox";

export const meta: Route.MetaFunction = () => [{ title: "Outbox (development) | Glow Clinic" }, { name: "robots", content: "noindex" }];

/**
 * The messages the embedded notifier would have sent. It exists only on the embedded setup
 * (DEV_OUTBOX), never with a real back end.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context;
  if (!services.env.DEV_OUTBOX) throw data("Not found", { status: 404 });
  const messages = await services.notifier.recent(50);
  return { messages };
}

export default function Outbox({ loaderData }: Route.ComponentProps) {
  return (
    <section className="page">
      <h1>Outbox</h1>
      <p className="muted">Messages the app sent while running on its embedded defaults, newest first.</p>
      {loaderData.messages.length === 0 ? <p>No messages yet.</p> : null}
      <ol className="outbox">
        {loaderData.messages.map((m) => (
          <li key={m.id}>
            <p>
              <strong>{m.channel === "email" ? "Email" : "Text"}</strong> to <span className="recipient">{m.to}</span> · {m.kind} ·{" "}
              <time dateTime={m.createdAt}>{m.createdAt}</time>
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
