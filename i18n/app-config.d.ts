import type en from "../messages/en.json";
import type { Locale } from "./locales";

// Message keys are checked by the compiler: a t("…") that names no English message does not compile.
declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
