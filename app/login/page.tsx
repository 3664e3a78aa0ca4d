import { getTranslations } from "next-intl/server";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/login-form";
import { currentPanelUser } from "@/lib/panel/session";

export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ expired?: string }> }) {
  if (await currentPanelUser()) redirect("/");
  const expired = (await searchParams).expired === "1";
  const t = await getTranslations("Login");
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="mb-1 text-xl font-semibold">Credit Platform</h1>
      <p className="mb-6 text-sm text-slate-600">{t("subtitle")}</p>
      {expired && <p role="status" className="mb-4 rounded bg-amber-50 p-2 text-sm text-amber-900">{t("expired")}</p>}
      <LoginForm />
    </main>
  );
}
