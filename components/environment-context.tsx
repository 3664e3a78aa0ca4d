"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";

// The environment the panel shows (sandbox or production), one for every screen: chosen in the sidebar, kept in the
// cp_env cookie (a display preference, not a credential: every panel endpoint still scopes by the signed-in user's
// tenant and takes the environment as a parameter), and read by the server so the first render already shows it.

export type PanelEnvironment = "sandbox" | "production";
export const PANEL_ENVIRONMENT_COOKIE = "cp_env";

const Context = createContext<{ environment: PanelEnvironment; setEnvironment: (env: PanelEnvironment) => void } | null>(null);

export function PanelEnvironmentProvider({ initial, children }: { initial: PanelEnvironment; children: ReactNode }) {
  const [environment, set] = useState<PanelEnvironment>(initial);
  const setEnvironment = useCallback((env: PanelEnvironment) => {
    document.cookie = `${PANEL_ENVIRONMENT_COOKIE}=${env}; path=/; max-age=31536000; samesite=lax`;
    set(env);
  }, []);
  return <Context.Provider value={{ environment, setEnvironment }}>{children}</Context.Provider>;
}

export function usePanelEnvironment() {
  const value = useContext(Context);
  if (!value) throw new Error("usePanelEnvironment outside the panel layout");
  return value;
}

const LOOK: Record<PanelEnvironment, { badge: string; strip: string }> = {
  sandbox: { badge: "bg-amber-100 text-amber-900 ring-amber-300", strip: "bg-amber-400" },
  production: { badge: "bg-red-100 text-red-900 ring-red-300", strip: "bg-red-600" },
};

/** The accent strip across the top of every panel page and the badge naming the environment: never confused. */
export function EnvironmentBanner() {
  const { environment } = usePanelEnvironment();
  const t = useTranslations("Environment");
  const look = LOOK[environment];
  return (
    <div className="sticky top-0 z-10">
      <div className={`h-1.5 w-full ${look.strip}`} />
      <p className="flex justify-end px-4 pt-2 md:px-8">
        <span data-testid="environment-badge" className={`rounded-full px-3 py-0.5 text-xs font-semibold ring-1 ${look.badge}`}>{t(environment)}</span>
      </p>
    </div>
  );
}

/** The sidebar's switch between the two environments. */
export function EnvironmentSwitch() {
  const { environment, setEnvironment } = usePanelEnvironment();
  const t = useTranslations("Environment");
  return (
    <label className="mt-3 block text-sm">
      <span className="mb-1 block text-xs font-semibold uppercase text-slate-500">{t("label")}</span>
      <select
        aria-label={t("label")}
        value={environment}
        onChange={(e) => setEnvironment(e.target.value as PanelEnvironment)}
        className="w-full rounded border border-slate-300 px-2 py-1"
      >
        <option value="sandbox">{t("names.sandbox")}</option>
        <option value="production">{t("names.production")}</option>
      </select>
    </label>
  );
}

/** On a page about one object (its environment in the address): the panel switches to that environment, and
 *  switching away in the sidebar goes back to the list, so the badge always names the environment on screen. */
export function PageEnvironment({ environment, listHref }: { environment: PanelEnvironment; listHref: string }) {
  const { environment: current, setEnvironment } = usePanelEnvironment();
  const router = useRouter();
  const synced = useRef(false);
  useEffect(() => {
    if (!synced.current) {
      synced.current = true;
      if (current !== environment) setEnvironment(environment);
      return;
    }
    if (current !== environment) router.push(listHref);
  }, [current, environment, listHref, router, setEnvironment]);
  return null;
}
