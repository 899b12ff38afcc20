/* report_json.h -- a world report (hs_report) as JSON, the same for every
 * command that prints one (world, path).  Each pair of bodies is
 *   {"a":NAME,"b":NAME,"status":STATUS,
 *    "pieces":[{"piece_a":I,"piece_b":J,"status":STATUS,
 *               "witness":[X,Y,Z],"distance":D},...],
 *    "contacts":[{"on_a":[X,Y,Z],"on_b":[X,Y,Z],"normal":[X,Y,Z]},...]}
 * with numbers by the rule of json_emit.h (null when not finite). */
#ifndef HS_REPORT_JSON_H
#define HS_REPORT_JSON_H

#include "halfspace.h"
#include "src/cli/json_emit.h"

/* Pair k of the report as one JSON object. */
void report_json_pair(json_emit *j, const hs_report *rep, int k);

/* The pairs of the report as a JSON array, in report order: all of them
 * when body is NULL, else those with the body named `body`. */
void report_json_pairs(json_emit *j, const hs_report *rep, const char *body);

#endif
