import Link from "next/link";

// Any unknown page outside /v1 (which answers problem+json itself): our own 404, not the framework's.
export default function NotFound() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-8 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <p className="text-slate-600">There is nothing at this address. The panel starts at the overview; the API reference is at /docs.</p>
      <p className="flex gap-4 text-sm">
        <Link href="/" className="underline">Go to the panel</Link>
        <Link href="/docs" className="underline">API reference</Link>
      </p>
    </main>
  );
}
