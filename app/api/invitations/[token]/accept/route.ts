import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "@/lib/api/errors";
import { publicPanelRoute } from "@/lib/panel/panel-route";
import { signInAttempts } from "@/lib/panel/sign-in-attempts";
import { acceptInvitation, AcceptInput, TooManyPasswordTries } from "@/lib/tenants/invitations";

// Guessing an existing account's password through its invitation link: 10 tries per link per 15 minutes, and each
// try counts against the account's own sign-in tries (a new link brings no fresh ones).
const attempts = new RateLimiterMemory({ points: 10, duration: 900, keyPrefix: "invitation-accept" });

// POST /api/invitations/{token}/accept — join the tenant: a new account gives name and password, an existing one its
// password. No session needed; the link's token is the credential. The browser then signs in as usual.
export const POST = publicPanelRoute({ body: AcceptInput }, async ({ body, params }) => {
  const token = params.token!;
  try {
    await attempts.consume(token.slice(0, 100));
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new ApiError("rate_limited", "Too many attempts with this link: try again later", { headers: { "retry-after": String(Math.ceil(err.msBeforeNext / 1000)) } });
    throw err;
  }
  try {
    const joined = await acceptInvitation(token, body, { tries: signInAttempts() });
    return { body: { tenant_id: joined.tenantId, email: joined.email } };
  } catch (err) {
    if (err instanceof TooManyPasswordTries) throw new ApiError("rate_limited", "Too many wrong passwords for this account: try again in 15 minutes", { headers: { "retry-after": "900" } });
    throw err;
  }
});
