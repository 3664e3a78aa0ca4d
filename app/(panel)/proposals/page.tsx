import { getTranslations } from "next-intl/server";
import { ReviewQueue } from "@/components/proposals/review-queue";
import { requirePanelUser } from "@/lib/panel/session";

// Proposals queue (every role reads it; support staff and above review).
export default async function Page() {
  const user = await requirePanelUser();
  const t = await getTranslations("Pages");
  return (
    <section className="max-w-6xl space-y-4">
      <h1 className="text-2xl font-semibold">{t("proposals")}</h1>
      <ReviewQueue tenantId={user.tenantId} />
    </section>
  );
}
