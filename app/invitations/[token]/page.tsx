import { getTranslations } from "next-intl/server";
import { notFound } from "next/navigation";
import { AcceptInvitationForm } from "@/components/members/accept-invitation-form";
import { DomainError } from "@/lib/errors";
import { invitationByToken } from "@/lib/tenants/invitations";

export const dynamic = "force-dynamic";

// The invitation link's page (no session needed: the token in the address is the credential).
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invitation = await invitationByToken(token).catch((err: unknown) => {
    if (err instanceof DomainError && err.code === "not_found") notFound();
    throw err;
  });
  const t = await getTranslations("Invitation");
  const roles = await getTranslations("Common.roles");
  return (
    <main className="mx-auto mt-16 max-w-md rounded-lg border border-slate-200 bg-white p-8 shadow-sm">
      <h1 className="mb-1 break-words text-xl font-semibold">{t("title", { tenant: invitation.tenant_name })}</h1>
      <p className="mb-6 break-words text-sm text-slate-600">
        {t.rich("invited", { by: invitation.invited_by, email: invitation.email, role: roles(invitation.role), strong: (chunks) => <strong>{chunks}</strong> })}
      </p>
      {invitation.status === "open" ? (
        <AcceptInvitationForm token={token} email={invitation.email} accountExists={invitation.account_exists} />
      ) : (
        <p role="alert" className="text-sm text-red-700">{t(invitation.status as "accepted" | "revoked" | "expired")}</p>
      )}
    </main>
  );
}
