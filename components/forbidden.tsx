export function Forbidden({ what = "credentials" }: { what?: string }) {
  return <p role="alert" className="text-slate-600">Only owners and admins manage {what}.</p>;
}
