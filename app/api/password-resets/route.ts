import { createHash } from "node:crypto";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { ForgotPasswordInput, requestPasswordReset } from "@/lib/auth/password-reset";
import { backgroundCount, inBackground } from "@/lib/jobs/background";
import { log } from "@/lib/log";
import { mailEnabled } from "@/lib/mail/transport";
import { panelBaseUrl, panelLocale, publicPanelRoute } from "@/lib/panel/panel-route";

// At most 3 reset e-mails per address an hour (per server process): a form cannot be used to flood someone's inbox.
// Work the answer does not wait for is bounded: past this many in flight (a flood of distinct addresses), the
// answer waits for its own again — backpressure on the client instead of unbounded database work.
const MAX_IN_FLIGHT = 50;
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
    const work = requestPasswordReset(body.email, mail).catch((err: unknown) => log().error({ err }, "making a password reset link failed"));
    if (backgroundCount() < MAX_IN_FLIGHT) inBackground(work);
    else await work;
  }
  return { status: 202, body: { accepted: true } };
});
