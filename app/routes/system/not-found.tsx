import { data, href, Link } from "react-router";
import type { Route } from "./+types/not-found";

export const meta: Route.MetaFunction = () => [
  { title: "Page not found | Glow Clinic" },
  { name: "robots", content: "noindex" },
];

export async function loader() {
  return data(null, { status: 404 });
}

/** Not a POST target either: answer any method with the same page. */
export async function action() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return (
    <section className="page narrow">
      <h1>We can't find that page</h1>
      <p>The link may be old or mistyped. These might help:</p>
      <ul>
        <li>
          <Link to={href("/locations")}>Find a clinic near you</Link>
        </li>
        <li>
          <Link to={href("/")}>Go to the home page</Link>
        </li>
      </ul>
    </section>
  );
}
