import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { envelope, newSigningSecret, signatureHeaders } from "./signing";

// What we send is checked by the reference verifier integrators use (`standardwebhooks`), not by our own code.

const body = JSON.stringify(
  envelope({ id: "evt_01JDQ9A1B2C3D4E5F6G7H8J9K0", type: "charge.paid", createdAt: new Date("2026-11-23T12:00:00Z"), tenantId: "ten_01JD0000000000000000000000", environment: "sandbox", payload: { id: "chg_1" } }),
);

describe("Standard Webhooks signatures", () => {
  it("verify with the reference library, and the envelope carries the event", () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const headers = signatureHeaders("msg_1", new Date(), body, [secret]);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual({
      id: "evt_01JDQ9A1B2C3D4E5F6G7H8J9K0",
      type: "charge.paid",
      created_at: "2026-11-23T12:00:00.000Z",
      tenant_id: "ten_01JD0000000000000000000000",
      environment: "sandbox",
      data: { id: "chg_1" },
    });
  });

  it("during a rotation both secrets sign: a receiver with either verifies; another secret, a changed body or an old timestamp fail", () => {
    const [old, current] = [newSigningSecret(), newSigningSecret()];
    const headers = signatureHeaders("msg_2", new Date(), body, [current, old]);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const secret of [old, current]) expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(current).verify(body.replace("charge.paid", "charge.canceled"), headers)).toThrow(WebhookVerificationError);
    const stale = signatureHeaders("msg_3", new Date(Date.now() - 10 * 60_000), body, [current]);
    expect(() => new Webhook(current).verify(body, stale)).toThrow(WebhookVerificationError);
  });
});
