import type { Metadata } from "next";
import { connection } from "next/server";
import { NextIntlClientProvider } from "next-intl";
import { getLocale } from "next-intl/server";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = { title: "Credit Platform — Admin", robots: { index: false } };

// Every page renders per request: Next puts the per-request CSP nonce (set by the app's server,
// lib/http/panel-csp.ts) on its scripts while rendering, which a page prerendered at build time could not carry.
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang={await getLocale()}>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <NextIntlClientProvider>
          <Providers>{children}</Providers>
        </NextIntlClientProvider>
      </body>
    </html>
  );
}
