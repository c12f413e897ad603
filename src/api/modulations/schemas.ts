/** 200 body of GET /modulation-routes. */
import * as z from "zod";
import { EDGE_CATEGORIES } from "../../theory/modulationGraph.js";
import { sharedSchemas } from "../shared/schemas.js";
import { onFirstUse } from "../shared/onFirstUse.js";

/** The modulation-route body, built on first use (shared/onFirstUse.ts). */
export const modulationSchemas = onFirstUse(() => {
  const { arabic, centsToleranceEcho, count, entityRef, idName, numericId } = sharedSchemas();

  /** A maqām rendering in a route. */
  const node = z.strictObject({
    maqamId: numericId,
    maqamIdName: idName,
    maqamDisplayName: z.string(),
    tonicId: idName,
    tonicDisplay: z.string(),
    isTransposition: z.boolean(),
    maqamDisplayNameAr: arabic,
    tonicDisplayAr: arabic,
  });

  const step = z.strictObject({
    from: node,
    to: node,
    modulationDegree: z
      .enum(EDGE_CATEGORIES.map((c) => c.degree))
      .describe("Roman numeral of the degree modulated on (`-8vb`: an octave below; 8va/8vb: register shifts)."),
    modulationCategory: z.enum(EDGE_CATEGORIES.map((c) => c.name)),
  });

  const modulationRoutes = z.strictObject({
    totalPossibleRoutes: z
      .strictObject({
        outboundRoutesCount: count,
        returnRoutesCount: count.optional().describe("With returnToStartingMaqam=true and an outbound route."),
        data: z.array(z.strictObject({ routeNumber: z.int().positive(), outboundRoute: z.strictObject({ hops: count, steps: z.array(step) }) })),
      })
      .describe("The outbound routes, shortest first."),
    possibleReturnRoutes: z
      .strictObject({ data: z.array(z.strictObject({ routeNumber: z.int().positive(), hops: count, steps: z.array(step) })) })
      .optional()
      .describe("With returnToStartingMaqam=true and an outbound route: the routes back to the source."),
    context: z
      .strictObject({
        tuningSystem: z.strictObject({ id: z.string(), displayName: z.string(), displayNameAr: arabic }),
        startingNote: entityRef,
        searchConstraints: z.strictObject({
          maxHops: z.int().positive(),
          maxRoutes: z.int().positive(),
          returnToStartingMaqam: z.boolean(),
          limitToShortestHops: z.boolean(),
          allowOctaveJumps: z.boolean(),
          allowDownwardModulation: z.boolean(),
          centsTolerance: centsToleranceEcho,
        }),
        sourceNode: node,
        targetNode: node,
        waypoints: z.array(node).optional().describe("The waypoints given, in order."),
      })
      .describe("The tuning system, starting note, search constraints and the nodes searched between."),
    message: z.string().optional().describe("Why no route was found, or that the search stopped at its limit."),
    searchLimitReached: z.literal(true).optional().describe("Present when the search stopped at its limit or routes were capped."),
  });

  return { modulationRoutes };
});
