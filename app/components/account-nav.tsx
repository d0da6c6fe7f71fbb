import { href, NavLink } from "react-router";

/** The account area's sections, by the spec's keys. */
const SECTIONS = [
  { key: "dashboard", label: "Dashboard", to: href("/account") },
  { key: "appointments", label: "Appointments", to: href("/account/appointments") },
  { key: "memberships", label: "Memberships", to: href("/account/memberships") },
  { key: "packages", label: "Packages", to: href("/account/packages") },
  { key: "gift-cards", label: "Gift cards", to: href("/account/gift-cards") },
  { key: "waitlist", label: "Waitlist", to: href("/account/waitlist") },
  { key: "share-the-glow", label: "Share the glow", to: href("/account/share-the-glow") },
  { key: "profile", label: "Profile", to: href("/account/profile") },
] as const;

export function AccountNav() {
  return (
    <nav aria-label="Your account" className="account-nav">
      {SECTIONS.map((s) => (
        // NavLink marks the section shown with aria-current="page".
        <NavLink key={s.key} to={s.to} end data-section={s.key}>
          {s.label}
        </NavLink>
      ))}
    </nav>
  );
}
