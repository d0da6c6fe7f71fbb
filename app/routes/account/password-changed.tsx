import { href } from "react-router";
import { ButtonLink } from "~/components/button-link";
import type { Route } from "./+types/password-changed";

export const meta: Route.MetaFunction = () => [
  { title: "Password changed | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export default function PasswordChanged() {
  return (
    <section className="page narrow">
      <h1>Your password has been changed</h1>
      <p role="status">You can sign in with your new password now. Other devices were signed out.</p>
      <div className="button-row">
        <ButtonLink className="button" to={href("/login")}>
          Back to login
        </ButtonLink>
      </div>
    </section>
  );
}
