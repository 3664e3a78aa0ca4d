"use client";

import { signOut } from "next-auth/react";

export function SignOutButton({ label }: { label: string }) {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/login" })} className="text-slate-700 underline">
      {label}
    </button>
  );
}
