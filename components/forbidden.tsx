import { getTranslations } from "next-intl/server";

export async function Forbidden({ what = "credentials" }: { what?: "credentials" | "auditLog" | "collectionAccount" | "members" | "webhooks" }) {
  const t = await getTranslations("Forbidden");
  return <p role="alert" className="text-slate-600">{t(what)}</p>;
}
