"use client";

import dynamic from "next/dynamic";
import "@scalar/api-reference-react/style.css";

// The interactive API reference (Scalar), rendered in the browser only, from our own /v1/openapi.json and our
// own bundle: no CDN, no fonts, proxy or AI agent from elsewhere, no telemetry. "Test Request" calls the sandbox address
// directly (same origin when you read the docs on it) with the key and tenant id the reader pastes.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="p-8 text-sm text-slate-600">Loading the API reference…</p>,
});

export function ApiReference() {
  return (
    <ApiReferenceReact
      configuration={{
        url: "/v1/openapi.json",
        withDefaultFonts: false,
        telemetry: false,
        persistAuth: false,
        hideClientButton: true,
        showDeveloperTools: "never",
        mcp: { disabled: true },
        agent: { disabled: true }, // "Ask AI" talks to Scalar's cloud: not for our integrators' data
        defaultOpenFirstTag: true,
        authentication: { preferredSecurityScheme: "ApiKey" },
        metaData: { title: "Credit Platform API reference" },
      }}
    />
  );
}
