"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";

/** A sidebar link that says where you are (aria-current="page", highlighted) on its page and the pages below it. */
export function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const pathname = usePathname();
  const current = href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <Link href={href} aria-current={current ? "page" : undefined} className={`block rounded px-2 py-1 hover:bg-slate-100 ${current ? "bg-slate-100 font-medium" : ""}`}>
      {children}
    </Link>
  );
}
