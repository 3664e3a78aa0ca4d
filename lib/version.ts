// The API's semantic version (spec §9: 1.4.0 is the latest release and everything it lists is served).
export const API_VERSION = "1.4.0";
