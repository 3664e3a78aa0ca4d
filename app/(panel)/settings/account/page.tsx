import { getTranslations } from "next-intl/server";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { requirePanelUser } from "@/lib/panel/session";

// Settings → Your account (every role): who is signed in, and their password.
export default async function Page() {
  const user = await requirePanelUser();
  const t = await getTranslations("Account");
  return (
    <section className="max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="break-all text-sm text-slate-600">{t("signedInAs", { name: user.name, email: user.email })}</p>
      <ChangePasswordForm email={user.email} />
    </section>
  );
}
