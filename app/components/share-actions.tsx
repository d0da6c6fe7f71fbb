import { useEffect, useState } from "react";

/**
 * Ways to share a referral link. The email and text links work without JavaScript; with it, a
 * copy button, and the system share sheet where the browser has one (phones, mostly).
 */
export function ShareActions({
  url,
  message,
  email,
  sms,
}: {
  url: string;
  message: string;
  email: string;
  sms: string;
}) {
  const [canShare, setCanShare] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState<"idle" | "done" | "failed">("idle");
  useEffect(() => {
    setHydrated(true);
    setCanShare(typeof navigator !== "undefined" && typeof navigator.share === "function");
  }, []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setCopied("done");
    } catch {
      setCopied("failed");
    }
  }

  return (
    <div className="share-actions">
      <label htmlFor="referral-link">Your link</label>
      <input id="referral-link" className="share-link" type="text" readOnly value={url} />
      {hydrated ? (
        <div className="actions">
          <button type="button" className="button" onClick={copy}>
            Copy link
          </button>
          {canShare ? (
            <button
              type="button"
              className="button button-secondary"
              onClick={() =>
                navigator.share({ title: "Your first laser facial for $50", text: message, url }).catch(() => undefined)
              }
            >
              Share…
            </button>
          ) : null}
        </div>
      ) : null}
      {/* Plain links: they open the mail or messages app, with or without JavaScript. */}
      <ul className="share-links">
        <li>
          <a href={email}>Send by email</a>
        </li>
        <li>
          <a href={sms}>Send by text</a>
        </li>
      </ul>
      <p role="status" className="muted">
        {copied === "done"
          ? "Link copied."
          : copied === "failed"
            ? "Couldn't copy: select the link above and copy it."
            : ""}
      </p>
    </div>
  );
}
