import { dashboard } from "@/lib/panel/dashboard";
import { panelScope } from "@/lib/panel/environment-param";
import { panelRoute } from "@/lib/panel/panel-route";

// GET /api/panel/dashboard?environment= — the Overview's figures and monthly series (every role may read them).
export const GET = panelRoute({}, async ({ user, request }) => ({ body: await dashboard(panelScope(user, request)) }));
