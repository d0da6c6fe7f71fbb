import http from "node:http";
import type { AddressInfo } from "node:net";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { createSmtpNotifier } from "./smtp-notifier.server";

describe("SMTP and SMS notifier", () => {
  it("sends email through the transport with the configured sender", async () => {
    // nodemailer's stream transport builds the real message without a network.
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
    const notifier = createSmtpNotifier({
      smtpUrl: "smtp://unused",
      from: "Glow Clinic <hello@glowclinic.example>",
      transport,
    });
    const sent: string[] = [];
    const original = transport.sendMail.bind(transport);
    transport.sendMail = (async (mail: nodemailer.SendMailOptions) => {
      const info = (await original(mail)) as unknown as { message: Buffer; messageId: string };
      sent.push(info.message.toString());
      return info;
    }) as typeof transport.sendMail;
    await notifier.send({
      channel: "email",
      kind: "one-time-code",
      to: "ana@example.com",
      subject: "Your code",
      body: "Your code is 123456.",
    });
    expect(sent[0]).toContain("To: ana@example.com");
    expect(sent[0]).toContain("From: Glow Clinic <hello@glowclinic.example>");
    expect(sent[0]).toContain("Your code is 123456.");
  });

  it("posts texts to the SMS webhook and fails loudly when it refuses", async () => {
    const received: unknown[] = [];
    let status = 202;
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        received.push(JSON.parse(body));
        res.statusCode = status;
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
    const notifier = createSmtpNotifier({
      smtpUrl: "smtp://unused",
      from: "x@example.com",
      smsWebhookUrl: url,
      transport: nodemailer.createTransport({ jsonTransport: true }),
    });
    try {
      await notifier.send({
        channel: "sms",
        kind: "booking-confirmation",
        to: "5125550141",
        subject: "",
        body: "Booked",
      });
      expect(received).toEqual([{ to: "5125550141", body: "Booked" }]);
      status = 500;
      await expect(
        notifier.send({ channel: "sms", kind: "booking-confirmation", to: "5125550141", subject: "", body: "Booked" }),
      ).rejects.toThrow("500");
    } finally {
      server.close();
    }
  });
});
