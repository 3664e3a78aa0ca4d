"use client";

import { usePathname } from "next/navigation";
import { useState, type ReactNode } from "react";

// Below 768 px the sidebar's content (switches, navigation, account) folds behind a Menu button, so a page's own
// content is not pushed below the fold; from 768 px it is always shown. Opened for the page it was opened on: going
// to another page folds it again.
export function SidebarMenu({ label, closeLabel, children }: { label: string; closeLabel: string; children: ReactNode }) {
  const pathname = usePathname();
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="sidebar-content"
        onClick={() => setOpenOn(open ? null : pathname)}
        className="absolute right-4 top-3 rounded border border-slate-300 px-2 py-1 text-sm md:hidden"
      >
        {open ? closeLabel : label}
      </button>
      <div id="sidebar-content" className={`mt-3 md:mt-0 ${open ? "block" : "hidden md:block"}`}>
        {children}
      </div>
    </>
  );
}
