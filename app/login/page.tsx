import { redirect } from "next/navigation";
import { LoginForm } from "@/components/login-form";
import { currentPanelUser } from "@/lib/panel/session";

export const dynamic = "force-dynamic";

export default async function LoginPage() {
  if (await currentPanelUser()) redirect("/");
  return (
    <main className="mx-auto mt-24 max-w-sm rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="mb-1 text-xl font-semibold">Credit Platform</h1>
      <p className="mb-6 text-sm text-slate-500">Sign in to the admin panel</p>
      <LoginForm />
    </main>
  );
}
