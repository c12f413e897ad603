/** 200 bodies by route template; open until the response schemas are wired in. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ResponseBodies {}
