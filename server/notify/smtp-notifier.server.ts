import nodemailer, { type Transporter } from "nodemailer";
import { logger } from "../observability/logger.server";
import type { Message, Notifier } from "./notifier.server";

/**
 * Production messages: email through SMTP (nodemailer), texts through the SMS provider's HTTP
 * webhook; either may be the only one configured. Every call has a timeout; a failure is logged
 * without the recipient or the content.
 */
export function createSmtpNotifier(options: {
  smtpUrl?: string;
  from: string;
  smsWebhookUrl?: string;
  timeoutMs?: number;
  transport?: Transporter;
  fetch?: typeof fetch;
}): Notifier {
  const timeoutMs = options.timeoutMs ?? 8_000;
  const transport =
    options.transport ??
    (options.smtpUrl
      ? nodemailer.createTransport(options.smtpUrl, {
          connectionTimeout: timeoutMs,
          greetingTimeout: timeoutMs,
          socketTimeout: timeoutMs,
        })
      : null);
  const doFetch = options.fetch ?? fetch;
  return {
    kind: "smtp",
    async send(message: Message) {
      if (message.channel === "email") {
        if (!transport) {
          logger.warn("email not sent: no SMTP server configured", { kind: message.kind });
          return { id: "" };
        }
        const info = await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.body,
        });
        logger.info("email sent", { kind: message.kind, id: String(info.messageId ?? "") });
        return { id: String(info.messageId ?? "") };
      }
      if (!options.smsWebhookUrl) {
        logger.warn("text not sent: no SMS provider configured", { kind: message.kind });
        return { id: "" };
      }
      const response = await doFetch(options.smsWebhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to: message.to, body: message.body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) {
        logger.error("text not sent", { kind: message.kind, status: response.status });
        throw new Error(`SMS provider answered ${response.status}`);
      }
      return { id: response.headers.get("x-message-id") ?? "" };
    },
    async recent() {
      return [];
    },
  };
}
