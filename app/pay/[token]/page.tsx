import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { environmentOfHost, hostOf } from "@/lib/api/environment";
import { brDate, loadPaymentPage, type PaymentPage } from "@/lib/collection/payment-page-data";
import { PrintButton } from "./print-button";

// The borrower's printable payment page (`payment_page_url` of a charge): no sign-in — the signed token in
// the URL is the capability (lib/collection/payment-page.ts). Boleto: the ficha de compensação with the
// linha digitável and the Interleaved 2 of 5 barcode; Pix: the QR code and the copia e cola. In Portuguese,
// for the people who pay. The images are SVG drawn on the server (lib/collection/payment-images.ts).

export const metadata: Metadata = { title: "Pagamento", robots: { index: false, follow: false }, referrer: "no-referrer" };

export default async function PaymentPageView({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const page = await loadPaymentPage(token, environmentOfHost(hostOf(await headers())));
  if (!page) notFound();
  const { charge } = page;
  return (
    <main lang="pt-BR" className="mx-auto max-w-3xl space-y-6 p-6 print:p-0">
      <header className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">{charge.method === "boleto" ? "Boleto de pagamento" : "Pagamento por Pix"}</h1>
        {page.payable && <PrintButton />}
      </header>
      {charge.environment === "sandbox" && (
        <p className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900">Ambiente de testes (sandbox): esta cobrança não tem valor real.</p>
      )}
      {page.notice && (
        <p data-testid="charge-status" className="rounded border border-slate-300 bg-white p-4">
          {page.notice}
        </p>
      )}
      {/* No longer payable: the notice only — the payer, the amounts and the installments are not shown to whoever holds
          the link once the debt is paid or the charge is gone. */}
      {page.payable && (charge.boleto ? <Boleto page={page} /> : <Pix page={page} />)}
    </main>
  );
}

function Field({ label, children, className = "" }: { label: string; children: React.ReactNode; className?: string }) {
  return (
    <div className={`border border-slate-400 px-2 py-1 ${className}`}>
      <div className="text-[10px] uppercase text-slate-500">{label}</div>
      <div className="text-sm">{children}</div>
    </div>
  );
}

function Boleto({ page }: { page: PaymentPage }) {
  const { charge, beneficiary, payer } = page;
  const boleto = charge.boleto!;
  return (
    <section aria-label="Ficha de compensação" className="bg-white">
      <div className="flex items-end gap-4 border-b-2 border-slate-900 pb-1">
        <span className="text-lg font-bold">{beneficiary.bankCode || boleto.bank_code}-9</span>
        <span data-testid="digitable-line" className="ml-auto font-mono text-base tracking-wide">
          {boleto.digitable_line}
        </span>
      </div>
      <div className="grid grid-cols-4">
        <Field label="Local de pagamento" className="col-span-3">Pagável em qualquer banco, lotérica ou aplicativo até o vencimento</Field>
        <Field label="Vencimento"><strong>{brDate(boleto.due_date)}</strong></Field>
        <Field label="Beneficiário" className="col-span-3">{beneficiary.name} — CNPJ {beneficiary.document}</Field>
        <Field label="Convênio / carteira">{beneficiary.agreement}</Field>
        <Field label="Data do documento">{page.documentDate}</Field>
        <Field label="Nº do documento" className="col-span-2"><span className="font-mono text-xs">{charge.id}</span></Field>
        <Field label="Nosso número"><span className="font-mono">{boleto.our_number}</span></Field>
        <Field label="Instruções" className="col-span-3">
          Após o vencimento, multa e juros de mora conforme o contrato. Parcelas: {charge.breakdown.map((line) => line.number).join(", ")}.
        </Field>
        <Field label="Valor do documento"><strong data-testid="amount">{page.amountText}</strong></Field>
        <Field label="Pagador" className="col-span-4">{payer.name} — {payer.document}</Field>
      </div>
      {page.barcodeSvg && (
        // Quiet zones of at least 5 mm each side; 103 mm wide as FEBRABAN prints it.
        <div data-testid="barcode" className="px-[5mm] py-3 [&>svg]:h-[13mm] [&>svg]:w-[103mm]" dangerouslySetInnerHTML={{ __html: page.barcodeSvg }} />
      )}
    </section>
  );
}

function Pix({ page }: { page: PaymentPage }) {
  const { charge, beneficiary } = page;
  const pix = charge.pix!;
  return (
    <section aria-label="Pix" className="space-y-4 rounded border border-slate-300 bg-white p-4">
      <dl className="grid grid-cols-[10rem_1fr] gap-y-1 text-sm">
        <dt className="text-slate-500">Recebedor</dt>
        <dd>{beneficiary.name} — CNPJ {beneficiary.document}</dd>
        <dt className="text-slate-500">Valor</dt>
        <dd><strong data-testid="amount">{page.amountText}</strong></dd>
        <dt className="text-slate-500">{pix.kind === "cob" ? "Válido até" : "Vencimento"}</dt>
        <dd>{pix.expires_at ? new Date(pix.expires_at).toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo" }) : brDate(charge.due_date)}</dd>
      </dl>
      {page.qrSvg && (
        <>
          <div data-testid="qr-code" role="img" aria-label="QR code Pix" className="h-64 w-64 [&>svg]:h-full [&>svg]:w-full" dangerouslySetInnerHTML={{ __html: page.qrSvg }} />
          <label className="block text-sm">
            <span className="text-slate-500">Pix copia e cola</span>
            <textarea data-testid="brcode" readOnly value={pix.brcode} rows={4} className="mt-1 block w-full rounded border border-slate-300 p-2 font-mono text-xs" />
          </label>
        </>
      )}
    </section>
  );
}
