export function Forbidden() {
  return <p role="alert" className="text-slate-600">Only owners and admins manage credentials.</p>;
}
