import { resetPassword, ResetPasswordInput } from "@/lib/auth/password-reset";
import { publicPanelRoute } from "@/lib/panel/panel-route";
import { signInAttempts } from "@/lib/panel/sign-in-attempts";

// POST /api/password-resets/{token} — sets the new password through a reset link (once, before it expires). No session
// needed: the link's token is the credential. The e-mail's count of wrong passwords is cleared (someone locked out
// by them is exactly who resets), and the browser then signs in with the new password.
export const POST = publicPanelRoute({ body: ResetPasswordInput }, async ({ body, params }) => {
  const done = await resetPassword(params.token!, body);
  await signInAttempts().succeeded(done.email);
  return { body: { email: done.email } };
});
