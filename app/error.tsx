"use client";

import { useTranslations } from "next-intl";

// A page of the panel that failed to render — most often the database did not answer while the page (or the panel's
// frame, which reads the signed-in person) was read: the panel's own message in the person's language with a way to
// try again, not the framework's bare English 500 page or "a client-side exception has occurred". The cause is in the
// server's log under the digest shown (production sends no error details to the browser).
export default function PanelError({ error, retry }: { error: unknown; retry: () => void }) {
  const t = useTranslations("PageError");
  const digest = error instanceof Error ? (error as Error & { digest?: string }).digest : undefined;
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="max-w-md text-slate-600">{t("body")}</p>
      <button type="button" onClick={() => retry()} className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
        {t("retry")}
      </button>
      {digest && <p className="text-xs text-slate-500">{t("reference", { digest })}</p>}
    </main>
  );
}
