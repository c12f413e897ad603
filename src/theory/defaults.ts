/** Defaults the API applies when a request leaves a parameter out; declared once. */

/** Cents within which intervals match when a request names no tolerance. */
export const DEFAULT_CENTS_TOLERANCE = 5;
