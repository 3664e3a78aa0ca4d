"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { panelFetch } from "@/components/credentials/panel-fetch";
import { ConfirmButton } from "@/components/webhooks/confirm-button";

// Erasing a customer's data at the person's request (owners and admins; POST /api/panel/customers/{id}/erase, the same
// rules as DELETE /v1/customers/{id}): asked first, since it cannot be undone; a customer a credit operation holds is
// refused with the server's reason (409).

export function EraseCustomerForm({ customerId, name, environment, onErased }: { customerId: string; name: string; environment: string; onErased: () => void }) {
  const t = useTranslations("Customers");
  const queryClient = useQueryClient();
  const erase = useMutation({
    mutationFn: () => panelFetch(`/api/panel/customers/${customerId}/erase?environment=${environment}`, { method: "POST", body: {} }),
    onSuccess: () => {
      onErased();
      void queryClient.invalidateQueries({ queryKey: ["customers"], refetchType: "none" });
    },
  });
  return (
    <section aria-labelledby="erase-h" className="space-y-2 rounded-lg border border-red-200 bg-white p-4 text-sm">
      <h2 id="erase-h" className="font-semibold">{t("eraseTitle")}</h2>
      <p className="text-slate-600">{t("eraseIntro")}</p>
      <ConfirmButton label={t("eraseAction")} question={t("eraseQuestion", { name })} confirmLabel={t("eraseConfirm")} pending={erase.isPending} onConfirm={() => erase.mutate()} />
      {erase.error && <p role="alert" className="text-red-600">{erase.error.message}</p>}
    </section>
  );
}
