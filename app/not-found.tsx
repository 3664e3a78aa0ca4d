import { getTranslations } from "next-intl/server";
import Link from "next/link";

// Any unknown page outside /v1 (which answers problem+json itself): our own 404, not the framework's.
export default async function NotFound() {
  const t = await getTranslations("NotFound");
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-2xl font-semibold">{t("title")}</h1>
      <p className="text-slate-600">{t("body")}</p>
      <p className="flex gap-4 text-sm">
        <Link href="/" className="underline">{t("panel")}</Link>
        <Link href="/docs" className="underline">{t("docs")}</Link>
      </p>
    </main>
  );
}
