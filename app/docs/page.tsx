import type { Metadata } from "next";
import { ApiReference } from "@/components/docs/api-reference";

// GET /docs — the API reference, public like /v1/openapi.json itself (it holds no tenant data).
export const metadata: Metadata = { title: "Credit Platform API reference", robots: { index: false } };

export default function Page() {
  return (
    <main className="min-h-screen bg-white">
      <ApiReference />
    </main>
  );
}
