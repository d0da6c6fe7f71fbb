import {
  Form,
  href,
  Link,
  Links,
  Meta,
  NavLink,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteLoaderData,
  type LinkDescriptor,
  type UIMatch,
} from "react-router";
import { browserErrorReporting } from "#server/observability/error-reporter.server";
import { attributionMiddleware, currentUser, sessionMiddleware } from "#server/request-context.server";
import { takeToast } from "#server/toast.server";
import type { Route } from "./+types/root";
import { ErrorMessage } from "./components/error-message";
import { FocusHeadingOnNavigation } from "./components/route-focus";
import { Toaster } from "./components/toaster";
import { useNonce } from "./lib/nonce";
// One stylesheet for every page (styles/index.css joins the design system and the controls), so a
// first visit waits for one CSS request, not two.
import stylesheet from "./styles/index.css?url";
import interLatin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";

export const links: Route.LinksFunction = () => [
  // With a precedence, React writes the stylesheet into the head ahead of the scripts' module
  // preloads, so a phone on a slow link asks for it first (decision 030).
  { rel: "stylesheet", href: stylesheet, precedence: "default" } as LinkDescriptor,
  // Asked for at once, so that on a first visit the font is there in time to be used at all
  // (`font-display: optional` never swaps it in later).
  { rel: "preload", href: interLatin, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/**
 * Reads the session once per request and saves it once when the answer goes out; keeps what a
 * landing URL says about the visit (a referral, a partner, an ad click).
 */
export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware, attributionMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  return {
    toast: takeToast(context),
    signedIn: Boolean(await currentUser(context)),
    // The same for every visitor, so pages in the render cache may carry it (decision 027).
    errorReporting: browserErrorReporting(context.services.env),
    // The footer's year comes with the data, so that a page renders from its data alone (decision 034).
    year: new Date().getFullYear(),
  };
}

/**
 * Where "Skip to content" goes: the page's main, or past a bar of links the page repeats on each of
 * its steps (a route's `handle.skipTo`, the id of an element that takes focus), so the bar is
 * skipped like the header (WCAG 2.4.1).
 */
function skipTarget(matches: UIMatch[]): string {
  for (const match of [...matches].reverse()) {
    const skipTo = (match.handle as { skipTo?: unknown } | undefined)?.skipTo;
    if (typeof skipTo === "string") return skipTo;
  }
  return "main";
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#7a3e5d" />
        <Meta />
        <Links />
        {/* Read by entry.client.tsx, which loads Sentry only when this is here. */}
        {rootData?.errorReporting ? (
          <meta name="error-reporting" content={JSON.stringify(rootData.errorReporting)} />
        ) : null}
      </head>
      <body>
        <a className="skip-link" href={`#${skipTarget(matches)}`}>
          Skip to content
        </a>
        <SiteHeader signedIn={rootData?.signedIn ?? false} />
        <Toaster toast={rootData?.toast ?? null} />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <SiteFooter year={rootData?.year ?? new Date().getFullYear()} />
        <FocusHeadingOnNavigation />
        {/* The support chat widget mounts here; it stays hidden until a visitor asks for help. */}
        <div id="support-chat" data-testid="support-chat" hidden />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

function SiteHeader({ signedIn }: { signedIn: boolean }) {
  return (
    <header className="site-header">
      <Link to={href("/")} className="brand" aria-label="Glow Clinic home">
        <span aria-hidden="true" className="brand-mark">
          ✦
        </span>{" "}
        Glow Clinic
      </Link>
      <nav aria-label="Main">
        <NavLink to={href("/locations")}>Locations</NavLink>
        <Link to={href("/locations") + "?view=map"}>Map</Link>
        {signedIn ? (
          <>
            <NavLink to={href("/account")}>Account</NavLink>
            <Form method="post" action={href("/logout")} className="inline-form">
              <button type="submit" className="link-button">
                Sign out
              </button>
            </Form>
          </>
        ) : (
          <NavLink to={href("/login")}>Sign in</NavLink>
        )}
      </nav>
    </header>
  );
}

function SiteFooter({ year }: { year: number }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Legal">
        <Link to={href("/terms")}>Terms of Use</Link>
        <Link to={href("/privacy")}>Privacy Policy</Link>
        <Link to={href("/locations")}>All locations</Link>
        <Link to={href("/memberships")}>Memberships</Link>
        <Link to={href("/packages")}>Packages</Link>
        <Link to={href("/gift-cards")}>Gift cards</Link>
      </nav>
      <p>© {year} Glow Clinic. Laser facials, peels and laser hair removal.</p>
    </footer>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <ErrorMessage error={error} />;
}
