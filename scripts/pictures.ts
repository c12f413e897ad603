/**
 * The picture (SVG) of a pre-rendered maqām or jins realisation (tuning system × starting note,
 * default parameters), drawn from the API's own answer in cents by the build worker that renders
 * the request, while its theory caches hold that tuning system × starting note. Written below
 * build/pictures/ at the path of the request's file with `.svg`.
 */
import { dispatch } from "../src/api/route.js";
import { routes } from "../src/api/routes.js";
import type { Catalog } from "../src/theory/catalog.js";
import { pictureOf, svgOf, type RealisationAnswer } from "../src/site/picture.js";

const REALISATION = /^\/(maqamat|ajnas)\/([^/?]+)\?startingNote=([^&]+)&tuningSystem=([^&]+)$/;
const DETAIL_ROUTES = new Set(["GET /maqamat/{idName}", "GET /ajnas/{idName}"]);
/**
 * A maqām or jins realisation with default parameters: not `/maqamat/families?…`, which has the
 * same shape, nor `/maqamat/all?…`, which has the detail route's but lists every maqām.
 */
export const realisationOf = (request: string) => {
  const m = REALISATION.exec(request);
  const path = request.split("?")[0];
  return m && m[2] !== "all" && DETAIL_ROUTES.has(routes.find((r) => r.matcher.test(path))?.name ?? "") ? m : undefined;
};

/**
 * realisationOf as a yes or no for a planned request, by the route the plan found for it (the first
 * in dispatch order, as here): the rendering's stop and the manifest ask it of every request.
 */
export const isPlannedRealisation = ({ request, route }: { request: string; route: string }): boolean => {
  const m = REALISATION.exec(request);
  return m !== null && m[2] !== "all" && DETAIL_ROUTES.has(route);
};

/** The picture of an API file (below pictures/). */
export const pictureFileOf = (file: string) => file.replace(/\.json$/, ".svg");

/** Draws the picture (SVG text) of a request on `catalog`, or says it has none (not a realisation). */
export function pictureDrawer(catalog: Catalog, baseUrl: string): (request: string) => string | undefined {
  const answer = (request: string) => {
    const url = new URL(request, "http://x");
    const response = dispatch(routes, { catalog, baseUrl, path: url.pathname, query: url.searchParams });
    return response.status === 200 ? response.body : undefined;
  };
  // The pitch-class count of each jins, for the maqāmāt's brackets: one tuning system × starting note's at a time, as a worker's batch holds one.
  let sizes = { key: "", byJins: new Map<string, number>() };
  const jinsSizes = (ts: string, note: string) => {
    const key = `${ts}/${note}`;
    if (sizes.key !== key) {
      const list = answer(`/tuning-systems/${ts}/${note}/ajnas`) as { data: { jins: { id: string }; stats: { numberOfPitchClasses: number } }[] } | undefined;
      sizes = { key, byJins: new Map((list?.data ?? []).map((d) => [d.jins.id, d.stats.numberOfPitchClasses])) };
    }
    return sizes.byJins;
  };
  return (request) => {
    const m = realisationOf(request);
    if (!m) return undefined;
    const [, kind, , note, ts] = m;
    const body = answer(`${request}&pitchClassDataType=cents`) as RealisationAnswer | undefined;
    if (!body?.pitchData) return undefined;
    return svgOf(pictureOf(body, kind === "maqamat" ? jinsSizes(ts, note) : undefined));
  };
}
