"use client";

import { useQuery } from "@tanstack/react-query";
import { useLocale, useTranslations } from "next-intl";
import Link from "next/link";
import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { panelFetch } from "../credentials/panel-fetch";
import { formatBRL, formatBRLWhole, formatDate, formatMonth, formatPercent } from "../format";
import type { Dashboard } from "@/lib/panel/dashboard";
import { usePanelEnvironment } from "../environment-context";

// The Overview's dashboard for one environment: portfolio figures now and the last twelve months (lib/panel/dashboard.ts
// defines each figure). Amounts stay integer centavos; only their labels are formatted.

export const dashboardKey = (tenantId: string, environment: Dashboard["environment"]) => ["dashboard", tenantId, environment] as const;

function Figure({ label, value, detail, testId }: { label: string; value: string; detail?: ReactNode; testId: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-xs uppercase text-slate-500">{label}</dt>
      <dd data-testid={testId} className="mt-1 break-words text-xl font-semibold">{value}</dd>
      {detail && <dd className="text-xs text-slate-500">{detail}</dd>}
    </div>
  );
}

export function DashboardPanel({ tenantId }: { tenantId: string }) {
  const { environment } = usePanelEnvironment();
  const t = useTranslations("Dashboard");
  const locale = useLocale();
  const names = useTranslations("Environment.names");
  const figures = useQuery({
    queryKey: dashboardKey(tenantId, environment),
    queryFn: () => panelFetch<Dashboard>(`/api/panel/dashboard?environment=${environment}`),
  });
  const data = figures.data;
  return (
    <section aria-labelledby="dashboard-heading" className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="dashboard-heading" className="text-lg font-semibold">{t("heading", { environment: names(environment) })}</h2>
      </div>
      {figures.isPending && <p className="text-sm text-slate-500">{t("loading")}</p>}
      {figures.isError && (
        <p role="alert" className="text-sm text-red-600">
          {figures.error.message} <button type="button" className="underline" onClick={() => void figures.refetch()}>{t("retry")}</button>
        </p>
      )}
      {data && (
        <>
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <Figure testId="figure-active" label={t("active")} value={String(data.active_contracts)} />
            <Figure testId="figure-outstanding" label={t("outstanding")} value={formatBRL(data.outstanding_balance)} />
            <Figure
              testId="figure-overdue-rate"
              label={t("overdueRate")}
              value={formatPercent(data.overdue_rate)}
              detail={
                <>
                  {t("overdueDetail", { count: data.overdue_contracts, amount: formatBRL(data.overdue_amount) })}
                  {data.overdue_contracts > 0 && (
                    <Link href="/contracts?status=overdue" data-testid="see-late" className="mt-1 block font-medium text-slate-900 underline">{t("seeLate")}</Link>
                  )}
                </>
              }
            />
            <Figure testId="figure-disbursed" label={t("disbursed")} value={formatBRL(data.disbursed_this_month)} />
            <Figure testId="figure-collected" label={t("collected")} value={formatBRL(data.collected_this_month)} />
            <Figure
              testId="figure-waiting"
              label={t("waiting")}
              value={String(data.proposals_waiting_review)}
              detail={<Link className="underline" href="/proposals">{t("openQueue")}</Link>}
            />
          </dl>
          <p className="text-xs text-slate-500">{t("asOf", { date: formatDate(data.as_of) })}</p>
          <figure className="rounded-lg border border-slate-200 bg-white p-4">
            <figcaption className="mb-2 text-sm font-medium">{t("moneyChart")}</figcaption>
            <div className="h-64 w-full" data-testid="chart-money">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={data.months} margin={{ left: 16 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="month" tickFormatter={(month: string) => formatMonth(month, locale)} fontSize={11} />
                  <YAxis tickFormatter={formatBRLWhole} fontSize={11} width={90} />
                  <Tooltip formatter={(value) => formatBRL(Number(value))} labelFormatter={(label) => formatMonth(String(label), locale)} />
                  <Legend />
                  <Bar dataKey="disbursed" name={t("seriesDisbursed")} fill="#1e293b" />
                  <Bar dataKey="collected" name={t("seriesCollected")} fill="#059669" />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </figure>
          <figure className="rounded-lg border border-slate-200 bg-white p-4">
            <figcaption className="mb-2 text-sm font-medium">{t("contractsChart")}</figcaption>
            <div className="h-48 w-full" data-testid="chart-contracts">
              <ResponsiveContainer width="100%" height="100%">
                <BarChart data={data.months}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="month" tickFormatter={(month: string) => formatMonth(month, locale)} fontSize={11} />
                  <YAxis allowDecimals={false} fontSize={11} />
                  <Tooltip labelFormatter={(label) => formatMonth(String(label), locale)} />
                  <Bar dataKey="contracts" name={t("seriesContracts")} fill="#6366f1" />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </figure>
        </>
      )}
    </section>
  );
}
