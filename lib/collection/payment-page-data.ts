import type { Environment } from "@prisma/client";
import { formatCnpj, maskCpf } from "@/lib/br";
import { todayInBrazil } from "@/lib/clock";
import { db } from "@/lib/db/client";
import { centavos } from "@/lib/serialize";
import { boletoBarcodeSvg, pixQrSvg } from "./payment-images";
import { chargeIdOfPageToken } from "./payment-page";
import type { ChargeResponse } from "./schemas";
import { toChargeResponse } from "./serialize";

// What the printable payment page shows (app/pay/[token]/page.tsx): the charge named by a valid page token,
// served only on its own environment's address. The payer's CPF is masked (LGPD: the page is a link that
// travels by e-mail and chat); a CNPJ is public and shown whole. Codes are shown only while payable (pending or overdue, nothing paid yet, not past a cob's expiry).

export type PaymentPage = {
  charge: ChargeResponse;
  payable: boolean;
  /** Why the codes are not shown, for the payer (null while payable). */
  notice: string | null;
  /** The boleto's "Data do documento": the day the charge was issued, in Brasília. */
  documentDate: string;
  payer: { name: string; document: string };
  beneficiary: { name: string; document: string; city: string; agreement: string; bankCode: string };
  /** What the barcode and the BR Code carry: the charge's amount. */
  amountText: string;
  barcodeSvg: string | null;
  qrSvg: string | null;
};

/** "R$ 1.234,56" from integer centavos, without floating point. */
export function formatBrl(amount: number): string {
  const negative = amount < 0;
  const digits = String(Math.abs(amount)).padStart(3, "0");
  const reais = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${negative ? "-" : ""}R$ ${reais},${digits.slice(-2)}`;
}

export async function loadPaymentPage(token: string, environment: Environment | null): Promise<PaymentPage | null> {
  const id = chargeIdOfPageToken(token);
  if (!id || !environment) return null;
  // The token is the capability (it names one charge); tenant and environment come from that charge.
  const row = await db().charge.findFirst({ where: { id, environment } });
  if (!row) return null;
  const charge = toChargeResponse(row);
  // A partly paid charge is not shown as payable: its barcode and BR Code carry its whole amount, and paying them again
  // would bring in the whole amount once more (the excess only a refund gives back); the payer asks for a new charge.
  // That includes one the job marked overdue after a part was paid (`partially_paid → overdue`), and a Pix `cob` past
  // its expiry the job has not marked yet (the PSP no longer takes it).
  const lapsed = charge.pix?.expires_at ? Date.parse(charge.pix.expires_at) <= Date.now() : false;
  const payable = (charge.status === "pending" || charge.status === "overdue") && charge.amount_paid === 0 && !lapsed;
  const notice = payable ? null : noticeOf(charge.status, charge.amount_paid > 0, lapsed);
  // The payer is shown only on a payable slip: once paid or gone, the page is a notice to whoever holds the link.
  const customer = payable ? await db().customer.findFirst({ where: { id: row.customerId, tenantId: row.tenantId, environment }, select: { name: true, document: true, kind: true } }) : null;
  const beneficiary = charge.beneficiary ?? { name: "", document: "", city: "", agreement: "", bank_code: "" };
  return {
    charge,
    payable,
    notice,
    documentDate: brDate(todayInBrazil(row.createdAt)),
    payer: {
      name: customer?.name ?? "",
      document: customer ? (customer.kind === "person" ? maskCpf(customer.document) : formatCnpj(customer.document)) : "",
    },
    beneficiary: {
      name: beneficiary.name,
      document: beneficiary.document ? formatCnpj(beneficiary.document) : "",
      city: beneficiary.city,
      agreement: beneficiary.agreement,
      bankCode: beneficiary.bank_code,
    },
    amountText: formatBrl(centavos(row.amount)),
    barcodeSvg: payable && charge.boleto ? boletoBarcodeSvg(charge.boleto.barcode) : null,
    qrSvg: payable && charge.pix ? pixQrSvg(charge.pix.brcode) : null,
  };
}

// Why a charge's codes are not shown. Settled states first; then a part already paid (partially_paid, or overdue after
// a part was paid: the codes carry the whole amount); then a cob past its expiry (pending or overdue, unmarked yet).
function noticeOf(status: string, partlyPaid: boolean, lapsed: boolean): string {
  if (status === "paid") return "Esta cobrança já foi paga.";
  if (status === "canceled") return "Esta cobrança foi cancelada. Peça uma nova ao credor.";
  if (status === "expired" || (lapsed && !partlyPaid)) return "Esta cobrança expirou. Peça uma nova ao credor.";
  if (partlyPaid) {
    return "Esta cobrança já recebeu um pagamento parcial: o código dela, do valor inteiro, não vale mais. Peça ao credor uma nova cobrança do que falta.";
  }
  return "Esta cobrança não pode mais ser paga. Peça uma nova ao credor.";
}

/** "10/12/2026" from "2026-12-10". */
export const brDate = (iso: string) => iso.split("-").reverse().join("/");
