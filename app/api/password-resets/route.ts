import { createHash } from "node:crypto";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { ForgotPasswordInput, requestPasswordReset } from "@/lib/auth/password-reset";
import { inBackground } from "@/lib/jobs/background";
import { log } from "@/lib/log";
import { mailEnabled } from "@/lib/mail/transport";
import { panelBaseUrl, panelLocale, publicPanelRoute } from "@/lib/panel/panel-route";

// At most 3 reset e-mails per address an hour (per server process): a form cannot be used to flood someone's inbox.
const perAddress = new RateLimiterMemory({ points: 3, duration: 3600, keyPrefix: "password-reset" });

// POST /api/password-resets — "forgot your password?": e-mails a reset link to the account of `email`, if there is
// one. The answer is the same either way (202), and given before the link is made (an account's link is a
// transaction and an e-mail; no account, one read): neither its body nor its timing tells who has an account.
export const POST = publicPanelRoute({ body: ForgotPasswordInput }, async ({ body, request }) => {
  const allowed = await perAddress.consume(createHash("sha256").update(body.email).digest("base64url")).then(
    () => true,
    () => false,
  );
  // Without e-mail there is no one to send the link to (the page says so; operators use the CLI): nothing is made.
  if (allowed && mailEnabled()) {
    const mail = { linkBase: panelBaseUrl(request), locale: panelLocale(request) };
    inBackground(requestPasswordReset(body.email, mail).catch((err: unknown) => log().error({ err }, "making a password reset link failed")));
  }
  return { status: 202, body: { accepted: true } };
});
