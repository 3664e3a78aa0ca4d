"""Generates credit_platform/operations.py (the operation table) and credit_platform/_methods.py (one typed
method per operation) from sdk/openapi.json. Run from the repository root: `npm run sdk:generate`. Offline,
standard library only; both outputs are committed, and the tests fail when an operation has no method."""
import json
import keyword
import pathlib
import re

HERE = pathlib.Path(__file__).resolve().parent
DOCUMENT = json.loads((HERE.parent / "openapi.json").read_text(encoding="utf-8"))
BANNER = "# Generated from sdk/openapi.json by sdk/python/generate.py — do not edit.\n"


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


operations = []
for template, item in DOCUMENT["paths"].items():
    for method in ("get", "post", "put", "patch", "delete"):
        op = item.get(method)
        if not op:
            continue
        params = op.get("parameters", [])
        # A body the caller must give is the operation's `requestBody.required` (OpenAPI's default: false), not whether
        # its schema has required fields: PATCH /v1/webhook-endpoints/{id} requires a body whose every field is optional.
        body_required = bool(op.get("requestBody", {}).get("required", False))
        operations.append(
            {
                "operation_id": op["operationId"],
                "name": snake(op["operationId"]),
                "method": method.upper(),
                "path": template,
                "path_params": [p["name"] for p in params if p["in"] == "path"],
                "query": any(p["in"] == "query" for p in params),
                "body": next(iter(op["requestBody"]["content"])) if "requestBody" in op else None,
                "auth": "bearer" if op.get("security") else "none",
                "paginated": any(p["in"] == "query" and p["name"] == "cursor" for p in params),
                # Sent again after an unknown outcome only when the server replays it (a POST documenting Idempotency-Key).
                "retry_safe": any(p["in"] == "header" and p["name"] == "Idempotency-Key" for p in params) if method == "post" else method != "patch",
                "summary": op.get("summary", ""),
                "body_required": body_required,
            }
        )

table = ",\n".join(
    f'    "{o["name"]}": {{"operation_id": "{o["operation_id"]}", "method": "{o["method"]}", "path": "{o["path"]}", '
    f'"path_params": {json.dumps(o["path_params"])}, "query": {o["query"]}, "body": {json.dumps(o["body"])}, '
    f'"auth": "{o["auth"]}", "paginated": {o["paginated"]}, "retry_safe": {o["retry_safe"]}}}'
    for o in operations
).replace(": null", ": None")
(HERE / "credit_platform" / "operations.py").write_text(
    f"{BANNER}# Every /v1 operation by its method name: operationId, HTTP method, path template, path parameters, whether it\n"
    f"# takes a query and a body (its media type), whether it needs a credential, whether it answers a page.\n\n"
    f"OPERATIONS = {{\n{table},\n}}\n",
    encoding="utf-8",
)

methods = []
for o in operations:
    args = ["self", "*"]
    for p in o["path_params"]:
        args.append(f"{p + '_' if keyword.iskeyword(p) else p}: str")
    if o["query"]:
        args.append("query: Optional[Mapping[str, Any]] = None")
    if o["body"]:
        args.append("body: Mapping[str, Any]" if o["body_required"] else "body: Optional[Mapping[str, Any]] = None")
    args.append("request_id: Optional[str] = None")
    args.append("timeout: Optional[float] = None")
    args.append("headers: Optional[Mapping[str, str]] = None")
    call_path = "{" + ", ".join(f'"{p}": {p + "_" if keyword.iskeyword(p) else p}' for p in o["path_params"]) + "}"
    summary = o["summary"].replace('"""', "'''").replace("\\", "\\\\")
    methods.append(
        f"    def {o['name']}({', '.join(args)}) -> Any:\n"
        f'        """{o["method"]} {o["path"]} — {summary}"""\n'
        f"        return self._call(\"{o['name']}\", path={call_path}, query={'query' if o['query'] else 'None'}, "
        f"body={'body' if o['body'] else 'None'}, request_id=request_id, timeout=timeout, headers=headers)\n"
    )
(HERE / "credit_platform" / "_methods.py").write_text(
    f"{BANNER}from typing import Any, Mapping, Optional\n\n\n"
    f"class OperationMethods:\n"
    f'    """One method per operation of the OpenAPI document (the client implements `_call`)."""\n\n'
    f"    def _call(self, name: str, *, path: Mapping[str, str], query: Optional[Mapping[str, Any]], body: Optional[Mapping[str, Any]], request_id: Optional[str], timeout: Optional[float], headers: Optional[Mapping[str, str]] = None) -> Any:\n"
    f"        raise NotImplementedError\n\n" + "\n".join(methods),
    encoding="utf-8",
)
print(f"generated {len(operations)} operations")
