import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Layering rules from style.md: routes and pages never touch the database directly (they call lib/<module>),
// and the pure libraries (lib/finance, lib/br) import no database, framework or config.
const config = [
  ...nextVitals,
  ...nextTs,
  { ignores: [".next/**", "node_modules/**", ".data/**", "next-env.d.ts", "playwright-report/**", "test-results/**", "sdk/*/dist/**"] },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [
        { group: ["@prisma/client", "@/lib/db/*", "pg"], message: "Routes and components call lib/<module> services; no database access here." },
      ] }],
    },
  },
  {
    files: ["lib/finance/**/*.ts", "lib/br/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [
        { group: ["@/*", "@prisma/*", "next", "next/*", "pg", "zod"], message: "lib/finance and lib/br are pure: values come in as arguments." },
      ] }],
    },
  },
];

export default config;
