"use client";

import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { LOCALE_COOKIE, LOCALES, type Locale } from "@/i18n/locales";

const NAMES: Record<Locale, string> = { "pt-BR": "Português (Brasil)", en: "English" };

/** The panel's language (the cp_locale cookie); the server renders the next page in it. */
export function LanguageSwitch() {
  const locale = useLocale();
  const router = useRouter();
  const t = useTranslations("Nav");
  return (
    <label className="mt-3 block">
      <span className="mb-1 block">{t("language")}</span>
      <select
        value={locale}
        onChange={(e) => {
          document.cookie = `${LOCALE_COOKIE}=${e.target.value}; path=/; max-age=31536000; samesite=lax`;
          router.refresh();
        }}
        className="w-full rounded border border-slate-300 px-2 py-1 text-slate-900"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={l}>{NAMES[l]}</option>
        ))}
      </select>
    </label>
  );
}
