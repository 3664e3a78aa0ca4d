import { redirect } from "next/navigation";
import { LoginForm } from "@/components/login-form";
import { currentPanelUser } from "@/lib/panel/session";

export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ expired?: string }> }) {
  if (await currentPanelUser()) redirect("/");
  const expired = (await searchParams).expired === "1";
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="mb-1 text-xl font-semibold">Credit Platform</h1>
      <p className="mb-6 text-sm text-slate-600">Sign in to the admin panel</p>
      {expired && <p role="status" className="mb-4 rounded bg-amber-50 p-2 text-sm text-amber-900">Your session has expired: sign in again.</p>}
      <LoginForm />
    </main>
  );
}
