/** The tenant the page making a panel request shows, sent by components/credentials/panel-fetch.ts and checked by
 *  lib/panel/panel-route.ts. The active tenant is a cookie every tab shares: after a switch in one tab, another tab
 *  still showing the previous tenant would otherwise read and write the new one under the old one's screen (e.g. save
 *  one tenant's bank account over another's). No imports: the browser loads it too. */
export const SCREEN_TENANT_HEADER = "x-panel-tenant";
