import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";
import { mailEnabled } from "@/lib/mail/transport";

export const dynamic = "force-dynamic";

// "Forgot your password?" (lib/auth/password-reset.ts). Without e-mail (SMTP_URL unset) the platform cannot send the
// link: the page says who can (an operator's `npm run tenants -- reset-password`).
export default async function ForgotPasswordPage() {
  const t = await getTranslations("PasswordReset");
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="mb-1 text-xl font-semibold">{t("title")}</h1>
      {mailEnabled() ? (
        <>
          <p className="mb-6 text-sm text-slate-600">{t("intro")}</p>
          <ForgotPasswordForm />
        </>
      ) : (
        <p className="mb-6 text-sm text-slate-600">{t("noEmail")}</p>
      )}
      <p className="mt-6 text-center text-sm">
        <Link href="/login" className="text-slate-600 underline">{t("back")}</Link>
      </p>
    </main>
  );
}
