"use client";

import "./globals.css";

// The root layout itself failed (it reads the language before anything else): no translations are loaded then, so the
// message is in both of the panel's languages. See ./error.tsx for every other page.
export default function GlobalError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="pt-BR">
      <body className="flex min-h-screen flex-col items-center justify-center gap-3 bg-slate-50 p-8 text-center text-slate-900">
        <h1 className="text-2xl font-semibold">A plataforma não respondeu · The platform did not answer</h1>
        <p className="max-w-md text-slate-600">
          Tente de novo em instantes. · Try again in a moment.
        </p>
        <button type="button" onClick={() => retry()} className="rounded bg-slate-900 px-3 py-1.5 text-sm text-white">
          Tentar de novo · Try again
        </button>
      </body>
    </html>
  );
}
