"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { CopyButton } from "../copy-button";
import { panelFetch, type PanelError } from "../credentials/panel-fetch";
import { formatDateTime } from "../format";
import { ConfirmButton } from "../webhooks/confirm-button";
import { InviteForm, type InviteInput } from "./invite-form";
import { memberKeys } from "./query-keys";

// Settings → Members: who may use this tenant's panel and with which role; owners invite, change roles and remove.

type Role = "owner" | "admin" | "support" | "viewer";
const ROLES: Role[] = ["owner", "admin", "support", "viewer"];
type Member = { user_id: string; email: string; name: string; role: Role; joined_at: string };
type Delivery = "pending" | "sent" | "failed" | "canceled" | null;
type Invitation = { id: string; email: string; role: Role; status: string; invited_by: string; created_at: string; expires_at: string; email_delivery: Delivery };
type Listing = { members: Member[]; invitations: Invitation[]; can_manage: boolean; you: string };

export function MembersPanel({ tenantId }: { tenantId: string }) {
  const t = useTranslations("Members");
  const roles = useTranslations("Common.roles");
  const queryClient = useQueryClient();
  const key = memberKeys.list(tenantId);
  const list = useQuery({ queryKey: key, queryFn: () => panelFetch<Listing>("/api/panel/members") });
  const [link, setLink] = useState<{ email: string; url: string; emailed: boolean } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const invite = useMutation<Invitation & { url: string }, PanelError, InviteInput>({
    mutationFn: (input) => panelFetch("/api/panel/invitations", { method: "POST", body: input }),
    onSuccess: (created) => {
      setLink({ email: created.email, url: created.url, emailed: created.email_delivery === "pending" });
      void refresh();
    },
  });
  const changeRole = useMutation<Member, PanelError, { userId: string; role: Role }>({
    mutationFn: ({ userId, role }) => panelFetch(`/api/panel/members/${userId}`, { method: "PATCH", body: { role } }),
    onSettled: () => refresh(),
  });
  const remove = useMutation<unknown, PanelError, string>({
    mutationFn: (userId) => panelFetch(`/api/panel/members/${userId}`, { method: "DELETE", body: {} }),
    onSettled: () => refresh(),
  });
  const revoke = useMutation<unknown, PanelError, string>({
    mutationFn: (id) => panelFetch(`/api/panel/invitations/${id}/revoke`, { method: "POST", body: {} }),
    onSettled: () => refresh(),
  });
  // A change that makes or unmakes an owner, or changes one's own role, is confirmed first (one slip of the select made a
  // viewer an owner, or demoted oneself); the others apply at once.
  const [asking, setAsking] = useState<{ member: Member; role: Role } | null>(null);
  const choose = (member: Member, role: Role) => {
    if (role === member.role) return;
    if (member.role === "owner" || role === "owner" || member.user_id === data?.you) setAsking({ member, role });
    else changeRole.mutate({ userId: member.user_id, role });
  };
  const data = list.data;
  const actionError = changeRole.error ?? remove.error ?? revoke.error;

  return (
    <div className="space-y-6">
      {data?.can_manage && <InviteForm key={link?.url ?? "new"} onSubmit={(input) => invite.mutate(input)} pending={invite.isPending} error={invite.error} />}
      {link && (
        <div role="status" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-sm">
          <p className="font-medium">{t("created", { email: link.email })}</p>
          <p>{link.emailed ? t("emailing", { email: link.email }) : t("sendLink")}</p>
          <p className="flex flex-wrap items-center gap-2">
            <code data-testid="invitation-link" className="break-all rounded bg-white px-2 py-1 text-xs">{link.url}</code>
            <CopyButton text={link.url} label={t("copyLink")} />
          </p>
          <button type="button" className="text-sm underline" onClick={() => setLink(null)}>{t("done")}</button>
        </div>
      )}
      {list.isPending && <p className="text-sm text-slate-500">{t("loading")}</p>}
      {list.isError && (
        <p role="alert" className="text-sm text-red-600">
          {list.error.message} <button type="button" className="underline" onClick={() => void list.refetch()}>{t("retry")}</button>
        </p>
      )}
      {actionError && <p role="alert" className="text-sm text-red-600">{actionError.message}</p>}
      {changeRole.isSuccess && <p role="status" className="text-sm text-green-700">{t("nowRole", { email: changeRole.data.email, role: roles(changeRole.data.role) })}</p>}
      {remove.isSuccess && <p role="status" className="text-sm text-green-700">{t("removed")}</p>}
      {data && (
        <div className="relative overflow-x-auto" tabIndex={0} role="region" aria-label={t("table")}>
          <table className="w-full min-w-[36rem] rounded-lg border border-slate-200 bg-white text-left text-sm">
            <caption className="sr-only">{t("table")}</caption>
            <thead className="bg-slate-100 text-xs uppercase text-slate-700">
              <tr><th className="px-3 py-2">{t("member")}</th><th className="px-3 py-2">{t("role")}</th><th className="px-3 py-2">{t("joined")}</th><th className="px-3 py-2"><span className="sr-only">{t("actions")}</span></th></tr>
            </thead>
            <tbody>
              {data.members.map((m) => (
                <tr key={m.user_id} data-testid={`member-${m.email}`} className="border-t border-slate-100">
                  <td className="max-w-xs px-3 py-2">
                    <p className="break-words font-medium">{m.name}{m.user_id === data.you && <span className="text-slate-500"> {t("you")}</span>}</p>
                    <p className="break-all text-xs text-slate-500">{m.email}</p>
                  </td>
                  <td className="px-3 py-2">
                    {data.can_manage ? (
                      <select
                        aria-label={t("roleOf", { email: m.email })}
                        value={changeRole.isPending && changeRole.variables.userId === m.user_id ? changeRole.variables.role : m.role}
                        disabled={changeRole.isPending}
                        onChange={(e) => choose(m, e.target.value as Role)}
                        className="rounded border border-slate-300 px-2 py-1"
                      >
                        {ROLES.map((r) => <option key={r} value={r}>{roles(r)}</option>)}
                      </select>
                    ) : (
                      roles(m.role)
                    )}
                    {asking?.member.user_id === m.user_id && (
                      <RoleQuestion
                        question={t("roleQuestion", { email: m.email, role: roles(asking.role) })}
                        confirmLabel={t("changeRole")}
                        onCancel={() => setAsking(null)}
                        onConfirm={() => {
                          changeRole.mutate({ userId: m.user_id, role: asking.role });
                          setAsking(null);
                        }}
                      />
                    )}
                  </td>
                  <td className="px-3 py-2">{formatDateTime(m.joined_at)}</td>
                  <td className="px-3 py-2">
                    {data.can_manage && (
                      <ConfirmButton label={t("remove")} question={t("removeQuestion", { email: m.email })} confirmLabel={t("remove")} pending={remove.isPending} onConfirm={() => remove.mutate(m.user_id)} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {data && data.invitations.length > 0 && (
        <section className="space-y-2">
          <h2 className="font-medium">{t("openInvitations")}</h2>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
            {data.invitations.map((inv) => (
              <li key={inv.id} data-testid={`invitation-${inv.email}`} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
                <span className="break-all">
                  {inv.email} · {roles(inv.role)} · {inv.status === "expired" ? t("expired") : t("expires", { date: formatDateTime(inv.expires_at) })}
                  {inv.status === "open" && (inv.email_delivery === "pending" || inv.email_delivery === "sent" || inv.email_delivery === "failed") && (
                    <span className={inv.email_delivery === "failed" ? "text-red-700" : "text-slate-500"}> · {t(`delivery.${inv.email_delivery}`)}</span>
                  )}
                </span>
                {data.can_manage && (
                  <ConfirmButton label={t("revoke")} question={t("revokeQuestion", { email: inv.email })} confirmLabel={t("revoke")} pending={revoke.isPending} onConfirm={() => revoke.mutate(inv.id)} />
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

function RoleQuestion({ question, confirmLabel, onCancel, onConfirm }: { question: string; confirmLabel: string; onCancel: () => void; onConfirm: () => void }) {
  const t = useTranslations("Common");
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => confirm.current?.focus(), []); // the question just opened: its answer takes the focus
  return (
    <span role="alertdialog" aria-label={question} className="mt-1 flex flex-wrap items-center gap-2 text-sm" onKeyDown={(e) => e.key === "Escape" && onCancel()}>
      <span>{question}</span>
      <button type="button" onClick={onCancel} className="underline">{t("cancel")}</button>
      <button ref={confirm} type="button" onClick={onConfirm} className="rounded bg-slate-900 px-2 py-1 text-white">{confirmLabel}</button>
    </span>
  );
}
