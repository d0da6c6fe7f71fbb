import express, { type Request, type Router } from "express";
import { randomBytes, randomUUID } from "node:crypto";
import { centsFromDollars, dollarsFromCents } from "../../app/domain/money";
import { findRow, type InvoiceRow, normalizeId, type SandboxDb } from "./db";
import { invoiceItemType, invoiceTotals, repriceInvoice } from "./booking";
import { redeemCoupon } from "./coupons";
import { isRefusal, refusal, v1Error, type Refusal } from "./errors";
import type { TenantProfile } from "./tenant-profiles";

/** Test cards: this one is always declined; any other number passing the checks is accepted. */
export const DECLINED_TEST_CARD = "4000000000000002";
/** This one is saved, but every charge to it is declined (a card that fails later). */
export const CHARGE_DECLINED_TEST_CARD = "4000000000000341";
/**
 * This one is saved, and every charge to it needs 3-D Secure: the charge answers with a hosted
 * verification page instead of a transaction, and is paid only when the guest passes the check there.
 */
export const THREE_DS_TEST_CARD = "4000000000003220";
const CARD_SESSION_SECONDS = 30 * 60;
/** A 3-D Secure check left open this long has timed out, as a bank's challenge does. */
const VERIFY_SESSION_SECONDS = 10 * 60;

type ReasonRow = {
  id: string;
  name: string;
  object_type: number;
  action_type: number;
  active: number;
  show_in_online_booking: number;
};

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function brandOf(digits: string): string {
  if (digits.startsWith("4")) return "VISA";
  if (/^5[1-5]/.test(digits) || /^2[2-7]/.test(digits)) return "MASTERCARD";
  if (/^3[47]/.test(digits)) return "AMEX";
  if (digits.startsWith("6")) return "DISCOVER";
  return "CARD";
}

/** MM/YY, not before this month. */
export function expiryValid(value: string, now: Date): boolean {
  const match = /^(\d{2})\s*\/\s*(\d{2})$/.exec(value.trim());
  if (!match) return false;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  if (month < 1 || month > 12) return false;
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function cardPage(options: { action: string; error?: string; name?: string; expiry?: string }) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Add a card | Secure payment</title>
<style>body{font:16px system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1f1a1d}label{display:block;font-weight:600;margin:.8rem 0 .2rem}input{font:inherit;width:100%;padding:.6rem;border:1px solid #999;border-radius:8px;box-sizing:border-box}button{margin-top:1rem;font:inherit;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:8px;background:#234;color:#fff}.error{color:#a4161a;font-weight:600}.note{color:#555;font-size:.9rem}</style></head>
<body><main><h1>Add a card</h1><p class="note">Secure card page of the spa sandbox. Test cards: 4242 4242 4242 4242 is accepted, 4000 0000 0000 0002 is declined, 4000 0000 0000 0341 is saved but its charges are declined, 4000 0000 0000 3220 is saved and its charges ask for 3-D Secure verification.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ""}
<form method="post" action="${escapeHtml(options.action)}">
<label for="name">Name on card</label><input id="name" name="name" autocomplete="cc-name" required value="${escapeHtml(options.name ?? "")}">
<label for="number">Card number</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" required>
<label for="expiry">Expiry (MM/YY)</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM/YY" required value="${escapeHtml(options.expiry ?? "")}">
<label for="cvc">Security code</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required>
<button type="submit">Save card</button></form></main></body></html>`;
}

const PAGE_STYLE =
  "body{font:16px system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1f1a1d}button{margin:1rem .5rem 0 0;font:inherit;font-weight:600;padding:.7rem 1.2rem;border:0;border-radius:8px;background:#234;color:#fff}button.secondary{background:#eee;color:#234}.error{color:#a4161a;font-weight:600}.note{color:#555;font-size:.9rem}";

/** The bank's 3-D Secure check: the guest approves or refuses the charge. */
function verifyPage(options: { action: string; amount: number; lastFour: string; error?: string }) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Verify your payment | Secure payment</title><style>${PAGE_STYLE}</style></head>
<body><main><h1>Verify your payment</h1><p class="note">3-D Secure check of the spa sandbox, standing in for your bank's page.</p>
${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ""}
<p>Your bank asks you to confirm a payment of <strong>$${options.amount.toFixed(2)}</strong> with the card ending ${escapeHtml(options.lastFour)}.</p>
<form method="post" action="${escapeHtml(options.action)}">
<button type="submit" name="result" value="approve">Approve payment</button>
<button type="submit" name="result" value="refuse" class="secondary">Refuse payment</button></form></main></body></html>`;
}

const expiredPage = (what: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link expired</title></head>
<body><main><h1>This ${what} link has expired</h1><p>Please go back and start again.</p></main></body></html>`;

function withStatus(uri: string, status: string): string {
  const url = new URL(uri);
  url.searchParams.set("status", status);
  return url.toString();
}

/** An absolute http(s) URL, or null. */
function webUrl(value: unknown): URL | null {
  try {
    const url = new URL(String(value));
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

type PaymentOptions = { now: () => number; tenant: TenantProfile; hostedPagesOnCallerOrigin: boolean };

/**
 * Zenoti's campaign discount on an invoice: the offer code's campaign, valid on the visit's date,
 * reprices the invoice's lines. The campaign's id, or why not.
 */
export function applyCampaign(db: SandboxDb, invoiceId: string, offerCode: string): { campaignId: string } | Refusal {
  const invoice = findRow<InvoiceRow>(db, "invoices", invoiceId);
  if (!invoice) return refusal(428, "Invoice not found");
  const code = offerCode.trim().toUpperCase();
  if (!code) return refusal(503, "Offer code is required");
  const campaign = db.prepare("SELECT * FROM campaigns WHERE code = ?").get(code) as
    | { valid_from: string | null; valid_to: string | null }
    | undefined;
  const firstVisit = db
    .prepare("SELECT MIN(start_local) AS start FROM appointments WHERE invoice_id = ?")
    .get(invoice.id) as { start: string | null };
  const day = (firstVisit.start ?? "").slice(0, 10);
  if (!campaign) {
    // A guest coupon's number takes the same path (decision 044): the invoice is then CouponApplied (3).
    let coupon: ReturnType<typeof redeemCoupon> = null;
    db.transaction(() => {
      coupon = redeemCoupon(db, invoice, code, day);
      if (!coupon || isRefusal(coupon)) return;
      db.prepare("UPDATE invoices SET campaign_code = ?, status = 3 WHERE id = ?").run(code, invoice.id);
      repriceInvoice(db, { ...invoice, campaign_code: code });
    })();
    if (!coupon) return refusal(4045, "Invalid offer code");
    return isRefusal(coupon) ? coupon : { campaignId: normalizeId((coupon as { couponId: string }).couponId) };
  }
  if ((campaign.valid_from && day < campaign.valid_from) || (campaign.valid_to && day > campaign.valid_to)) {
    return refusal(4046, "Offer code is not valid for the appointment date");
  }
  db.transaction(() => {
    db.prepare("UPDATE invoices SET campaign_code = ?, status = 2 WHERE id = ?").run(code, invoice.id);
    repriceInvoice(db, { ...invoice, campaign_code: code });
  })();
  return { campaignId: normalizeId(code) };
}

export function mountPayments(router: Router, hostedRouter: Router, db: SandboxDb, options: PaymentOptions) {
  const { now } = options;
  /**
   * Where the guest's browser finds the hosted pages: the organisation's own host when the tenant has
   * one (Zenoti's `https://<org>.zenoti.com`), else see SandboxOptions.hostedPagesOnCallerOrigin.
   */
  const hostedBase = (req: Request, redirect: URL) =>
    `${options.tenant.hostedPageOrigin ?? (options.hostedPagesOnCallerOrigin ? redirect.origin : `${req.protocol}://${req.get("host")}`)}${req.baseUrl}/hosted`;

  router.post("/v1/guests/:guestId/accounts", (req, res) => {
    const guest = findRow<{ id: string }>(db, "guests", req.params.guestId);
    if (!guest) return v1Error(res, 200, 414, "Guest not found");
    const body = req.body as { center_id?: string; redirect_uri?: string };
    const center = body.center_id ? findRow<{ id: string }>(db, "centers", body.center_id) : undefined;
    if (!center) return v1Error(res, 200, 502, "Invalid center_id");
    const redirect = webUrl(body.redirect_uri);
    if (!redirect) return v1Error(res, 200, 400, "redirect_uri is invalid");
    const token = randomBytes(24).toString("base64url");
    db.prepare(
      "INSERT INTO card_sessions (token, guest_id, center_id, redirect_uri, created_at) VALUES (?, ?, ?, ?, ?)",
    ).run(token, guest.id, center.id, redirect.toString(), now());
    res.json({ hosted_payment_uri: `${hostedBase(req, redirect)}/card/${token}`, error: null });
  });

  router.get("/v1/guests/:guestId/accounts", (req, res) => {
    const guest = findRow<{ id: string }>(db, "guests", req.params.guestId);
    if (!guest) return v1Error(res, 200, 414, "Guest not found", { accounts: null });
    const rows = db.prepare("SELECT * FROM cards WHERE guest_id = ? ORDER BY created_at").all(guest.id) as {
      account_id: string;
      brand: string;
      last_four: string;
      expiry: string;
      created_at: number;
    }[];
    // docs.zenoti.com's current reference answers a bare array of these four keys, no envelope.
    if (options.tenant.cardsAsBareArray) {
      return res.json(
        rows.map((c) => ({
          account_id: c.account_id,
          card_logo: c.brand,
          last_four: c.last_four,
          expiry_on: c.expiry,
        })),
      );
    }
    res.json({
      accounts: rows.map((c) => ({
        account_id: c.account_id,
        account_type: "CreditCard",
        card_logo: c.brand,
        last_four: c.last_four,
        expiry_on: c.expiry,
        identifier: `${c.brand} ending ${c.last_four}`,
        created_date: new Date(c.created_at).toISOString(),
        created_date_iso: new Date(c.created_at).toISOString(),
      })),
      has_expired_cards: false,
      error: null,
    });
  });

  hostedRouter.use(express.urlencoded({ extended: false, limit: "4kb" }));
  hostedRouter.get("/hosted/card/:token", (req, res) => {
    const session = db.prepare("SELECT * FROM card_sessions WHERE token = ?").get(req.params.token) as
      | { created_at: number; completed: number }
      | undefined;
    res.setHeader("Cache-Control", "no-store");
    if (!session || session.completed || now() - session.created_at > CARD_SESSION_SECONDS * 1000) {
      return res.status(410).type("html").send(expiredPage("card"));
    }
    res.type("html").send(cardPage({ action: req.originalUrl }));
  });

  hostedRouter.post("/hosted/card/:token", (req, res) => {
    const session = db.prepare("SELECT * FROM card_sessions WHERE token = ?").get(req.params.token) as
      | {
          token: string;
          guest_id: string;
          center_id: string;
          redirect_uri: string;
          created_at: number;
          completed: number;
        }
      | undefined;
    res.setHeader("Cache-Control", "no-store");
    if (!session || session.completed || now() - session.created_at > CARD_SESSION_SECONDS * 1000) {
      return res.status(410).type("html").send(expiredPage("card"));
    }
    // Only a urlencoded form has a body here; a multipart or empty POST has none, and is asked again.
    const body = (req.body ?? {}) as Record<string, string | undefined>;
    const digits = String(body.number ?? "").replace(/[\s-]/g, "");
    const expiry = String(body.expiry ?? "");
    const cvc = String(body.cvc ?? "").trim();
    const name = String(body.name ?? "")
      .trim()
      .slice(0, 100);
    const again = (error: string) =>
      res
        .status(400)
        .type("html")
        .send(cardPage({ action: req.originalUrl, error, name, expiry }));
    if (!name) return again("Please enter the name on the card.");
    if (!luhnValid(digits)) return again("That card number is not valid.");
    if (!expiryValid(expiry, new Date(now()))) return again("That expiry date is not valid.");
    if (!/^\d{3,4}$/.test(cvc)) return again("That security code is not valid.");
    db.prepare("UPDATE card_sessions SET completed = 1 WHERE token = ?").run(session.token);
    if (digits === DECLINED_TEST_CARD) return res.redirect(303, withStatus(session.redirect_uri, "declined"));
    const accountId = randomUUID();
    const [mm, yy] = expiry.split("/").map((p) => p.trim());
    db.prepare(
      "INSERT INTO cards (account_id, guest_id, center_id, brand, last_four, expiry, created_at, declines_charges, requires_3ds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(
      accountId,
      session.guest_id,
      session.center_id,
      brandOf(digits),
      digits.slice(-4),
      `${mm}/20${yy}`,
      now(),
      digits === CHARGE_DECLINED_TEST_CARD ? 1 : 0,
      digits === THREE_DS_TEST_CARD ? 1 : 0,
    );
    res.redirect(303, withStatus(session.redirect_uri, "successful"));
  });

  /** Records a payment of the amount (the balance when none is given); null when there is nothing to pay. */
  const payBalance = (invoiceId: string, accountId: string, requested?: number): string | null =>
    db
      .transaction(() => {
        const { balance } = invoiceTotals(db, invoiceId);
        const amount = requested === undefined ? balance : Number(requested);
        if (!(amount > 0) || centsFromDollars(amount) > centsFromDollars(balance)) return null;
        const id = randomUUID();
        db.prepare(
          "INSERT INTO transactions (id, invoice_id, account_id, amount, created_at) VALUES (?, ?, ?, ?, ?)",
        ).run(id, invoiceId, accountId, amount, now());
        return id;
      })
      .immediate();

  type PaymentSession = {
    token: string;
    invoice_id: string;
    account_id: string;
    redirect_uri: string;
    created_at: number;
    completed: number;
  };
  const openPaymentSession = (token: string): PaymentSession | null => {
    const session = db.prepare("SELECT * FROM payment_sessions WHERE token = ?").get(token) as
      | PaymentSession
      | undefined;
    if (!session || session.completed || now() - session.created_at > VERIFY_SESSION_SECONDS * 1000) return null;
    return session;
  };
  const lastFourOf = (accountId: string) =>
    (db.prepare("SELECT last_four FROM cards WHERE account_id = ?").get(accountId) as { last_four: string } | undefined)
      ?.last_four ?? "";

  hostedRouter.get("/hosted/verify/:token", (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const session = openPaymentSession(req.params.token);
    if (!session) return res.status(410).type("html").send(expiredPage("payment"));
    const { balance } = invoiceTotals(db, session.invoice_id);
    res
      .type("html")
      .send(verifyPage({ action: req.originalUrl, amount: balance, lastFour: lastFourOf(session.account_id) }));
  });

  hostedRouter.post("/hosted/verify/:token", (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    const session = openPaymentSession(req.params.token);
    if (!session) return res.status(410).type("html").send(expiredPage("payment"));
    const result = String((req.body as Record<string, unknown> | undefined)?.result ?? "");
    if (result !== "approve" && result !== "refuse") {
      const { balance } = invoiceTotals(db, session.invoice_id);
      return res
        .status(400)
        .type("html")
        .send(
          verifyPage({
            action: req.originalUrl,
            amount: balance,
            lastFour: lastFourOf(session.account_id),
            error: "Please approve or refuse the payment.",
          }),
        );
    }
    db.prepare("UPDATE payment_sessions SET completed = 1 WHERE token = ?").run(session.token);
    if (result === "refuse") return res.redirect(303, withStatus(session.redirect_uri, "failed"));
    // Passed: the charge is made now, on what the invoice still owes (lines removed meanwhile owe nothing).
    const paid = payBalance(session.invoice_id, session.account_id);
    res.redirect(303, withStatus(session.redirect_uri, paid ? "successful" : "failed"));
  });

  const invoiceJson = (invoice: InvoiceRow) => {
    const totals = invoiceTotals(db, invoice.id);
    return {
      invoice: {
        id: invoice.id,
        invoice_number: String(invoice.number),
        // Zenoti numbers invoices per organisation with a prefix of the center's; the sandbox uses its code.
        invoice_number_prefix:
          (db.prepare("SELECT code FROM centers WHERE id = ?").get(invoice.center_id) as { code: string } | undefined)
            ?.code ?? "",
        center_id: invoice.center_id,
        is_closed: invoice.is_closed === 1,
        invoice_date: new Date(invoice.created_at).toISOString(),
        campaign_code: invoice.campaign_code,
        invoice_dues: { total: totals.total, paid: totals.paid, balance: totals.balance },
        total_price: {
          currency_id: 148,
          net_price: totals.total,
          tax: 0,
          rounding_adjustment: 0,
          sum_total: totals.total,
        },
        guest: { id: invoice.guest_id },
        invoice_items: totals.items.map((i) => ({
          invoice_item_id: i.id,
          id: i.service_id,
          name: i.name,
          type: invoiceItemType(i.kind),
          price: {
            currency_id: 148,
            sales: i.price,
            tax: 0,
            final: dollarsFromCents(centsFromDollars(i.price) - centsFromDollars(i.discount)),
            discount: i.discount,
          },
          quantity: 1,
        })),
        transactions: (
          db.prepare("SELECT * FROM transactions WHERE invoice_id = ? ORDER BY created_at").all(invoice.id) as {
            id: string;
            amount: number;
            account_id: string;
            created_at: number;
          }[]
        ).map((t) => ({
          transaction_id: t.id,
          amount_paid: t.amount,
          total_amount_paid: t.amount,
          payment_date: new Date(t.created_at).toISOString(),
          payment_option: { id: t.account_id, payment_mode: "Card" },
        })),
      },
      error: null,
    };
  };

  router.get("/v1/invoices/:invoiceId", (req, res) => {
    const invoice = findRow<InvoiceRow>(db, "invoices", req.params.invoiceId);
    if (!invoice) return v1Error(res, 200, 428, "Invoice not found", { invoice: null });
    res.json(invoiceJson(invoice));
  });

  router.post("/v1/invoices/:invoiceId/online_payments", (req, res) => {
    const invoice = findRow<InvoiceRow>(db, "invoices", req.params.invoiceId);
    if (!invoice) return v1Error(res, 200, 428, "Invoice not found");
    const body = req.body as { account_id?: string; amount?: number; redirect_uri?: string };
    if (!body.account_id) {
      return v1Error(res, 200, 400, "account_id is required; a new card goes through the hosted page");
    }
    const redirect = body.redirect_uri === undefined ? null : webUrl(body.redirect_uri);
    if (body.redirect_uri !== undefined && !redirect) return v1Error(res, 200, 400, "redirect_uri is invalid");
    const card = db
      .prepare("SELECT * FROM cards WHERE account_id = ? AND guest_id = ?")
      .get(body.account_id, invoice.guest_id) as { declines_charges: number; requires_3ds: number } | undefined;
    if (!card) return v1Error(res, 200, 4061, "Payment failed: card not found for this guest");
    if (card.declines_charges) return v1Error(res, 200, 4063, "Payment failed: the card was declined");
    if (body.amount !== undefined && !(Number(body.amount) > 0))
      return v1Error(res, 200, 4062, "Nothing to pay on this invoice");
    if (card.requires_3ds) {
      // The charge waits for the guest's bank: no transaction yet, a page to send the guest to.
      if (!redirect) return v1Error(res, 200, 400, "redirect_uri is required: this card needs 3-D Secure verification");
      if (invoiceTotals(db, invoice.id).balance <= 0) return v1Error(res, 200, 4062, "Nothing to pay on this invoice");
      const token = randomBytes(24).toString("base64url");
      db.prepare(
        "INSERT INTO payment_sessions (token, invoice_id, account_id, redirect_uri, created_at) VALUES (?, ?, ?, ?, ?)",
      ).run(token, invoice.id, body.account_id, redirect.toString(), now());
      return res.json({
        invoice_transaction_id: null,
        token_id: null,
        hosted_payment_uri: `${hostedBase(req, redirect)}/verify/${token}`,
        error: null,
      });
    }
    const transactionId = payBalance(invoice.id, body.account_id, body.amount);
    if (!transactionId) return v1Error(res, 200, 4062, "Nothing to pay on this invoice");
    res.json({ invoice_transaction_id: transactionId, token_id: null, hosted_payment_uri: null, error: null });
  });

  router.post("/v1/invoices/:invoiceId/campaign_discount/apply", (req, res) => {
    const code = String((req.body as { offer_code?: string }).offer_code ?? "");
    const applied = applyCampaign(db, req.params.invoiceId, code);
    if (isRefusal(applied)) return v1Error(res, 200, applied.code, applied.message, { discount_applied: false });
    res.json({ discount_applied: true, campaign_id: applied.campaignId, error: null });
  });

  router.delete("/v1/invoices/:invoiceId/invoiceitems/:itemId", (req, res) => {
    const invoice = findRow<InvoiceRow>(db, "invoices", req.params.invoiceId);
    if (!invoice) return v1Error(res, 200, 428, "Invoice not found");
    const item = findRow<{
      id: string;
      invoice_id: string;
      removed: number;
      service_id: string;
      redeemed_user_package_id: string | null;
    }>(db, "invoice_items", req.params.itemId);
    if (!item || item.invoice_id !== invoice.id) return v1Error(res, 200, 429, "Invoice item not found");
    const comments = String((req.body as { comments?: string } | undefined)?.comments ?? "").slice(0, 500);
    db.transaction(() => {
      db.prepare("UPDATE invoice_items SET removed = 1, comments = ? WHERE id = ?").run(comments, item.id);
      db.prepare("UPDATE appointments SET status = -1 WHERE invoice_item_id = ?").run(item.id);
      // A line paid by a package session gives the session back when it is removed.
      if (item.redeemed_user_package_id && !item.removed) {
        db.prepare(
          "UPDATE guest_package_services SET redeemed = MAX(0, redeemed - 1) WHERE user_package_id = ? AND service_id = ?",
        ).run(item.redeemed_user_package_id, item.service_id);
      }
    })();
    res.json({ success: true, error: null });
  });

  router.get("/v1/reasons", (_req, res) => {
    // Every reason of the organisation, as Zenoti answers: the caller keeps the ones it needs.
    const rows = db.prepare("SELECT * FROM reasons ORDER BY name").all() as ReasonRow[];
    res.json({
      reasons: rows.map((r, i) => ({
        reasonpk: i + 1,
        id: r.id,
        code: r.name.toUpperCase().replace(/\W+/g, "_"),
        name: r.name,
        description: r.name,
        object_type: r.object_type,
        action_type: r.action_type,
        active: r.active === 1,
        show_in_online_booking: r.show_in_online_booking === 1,
      })),
      Error: null,
    });
  });
}
