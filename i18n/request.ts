import { getRequestConfig } from "next-intl/server";
import { cookies, headers } from "next/headers";
import { LOCALE_COOKIE, negotiateLocale, TIME_ZONE } from "./locales";

// next-intl's per-request configuration (no locale in the URL: the panel's addresses stay the same in both languages).
export default getRequestConfig(async () => {
  const locale = negotiateLocale((await cookies()).get(LOCALE_COOKIE)?.value, (await headers()).get("accept-language"));
  return { locale, timeZone: TIME_ZONE, messages: (await import(`../messages/${locale}.json`)).default };
});
