import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { ApiError } from "@/lib/api/errors";
import { publicPanelRoute } from "@/lib/panel/panel-route";
import { acceptInvitation, AcceptInput } from "@/lib/tenants/invitations";

// Guessing an existing account's password through its invitation link: 10 tries per link per 15 minutes.
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
  const joined = await acceptInvitation(token, body);
  return { body: { tenant_id: joined.tenantId, email: joined.email } };
});
