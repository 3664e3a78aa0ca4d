import { ApiError } from "@/lib/api/errors";
import { changePassword, ChangePasswordInput, isWrongCurrentPassword } from "@/lib/auth/account-password";
import { panelRoute } from "@/lib/panel/panel-route";
import { signInAttempts } from "@/lib/panel/sign-in-attempts";

// POST /api/panel/account/password — the signed-in person changes their own password (any role). A wrong current
// password counts as a wrong sign-in (./sign-in-attempts.ts): a session left open is no way to guess it. Other
// sessions end (lib/panel/session.ts); the browser signs in again with the new password.
export const POST = panelRoute({ body: ChangePasswordInput }, async ({ user, body }) => {
  const attempts = signInAttempts();
  // Counted before the current password is checked (atomic: parallel guesses cannot all pass); a refusal that was
  // not a wrong password (the new one equals it, the account changed) gives the try back.
  if (!(await attempts.take(user.email))) throw new ApiError("rate_limited", "Too many wrong passwords: try again in 15 minutes", { headers: { "retry-after": "900" } });
  try {
    const changed = await changePassword(user.userId, body);
    await attempts.succeeded(user.email);
    return { body: changed };
  } catch (err) {
    if (!isWrongCurrentPassword(err)) await attempts.giveBack(user.email);
    throw err;
  }
});
