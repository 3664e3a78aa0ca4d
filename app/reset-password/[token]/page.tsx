import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { passwordResetByToken } from "@/lib/auth/password-reset";
import { DomainError } from "@/lib/errors";

export const dynamic = "force-dynamic";

// A password reset link's page (no session needed: the token in the address is the credential).
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const link = await passwordResetByToken(token).catch((err: unknown) => {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  });
  const t = await getTranslations("PasswordReset");
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="mb-1 text-xl font-semibold">{t("resetTitle")}</h1>
      <p className="mb-6 break-all text-sm text-slate-600">{link.email}</p>
      {link.status === "open" ? (
        <ResetPasswordForm token={token} email={link.email} />
      ) : (
        <p role="alert" className="text-sm text-red-700">
          {t(link.status)} <Link href="/forgot-password" className="underline">{t("askAgain")}</Link>
        </p>
      )}
    </main>
  );
}
