/* report_json.c -- a world report as JSON (see report_json.h), written
 * with the CLI's JSON writer. */
#include "src/cli/report_json.h"

#include "src/cli/cli_common.h"

static void report_json_pieces(json_emit *j, const hs_report *rep, int k)
{
    json_array_open(j);
    for (int p = 0; p < hs_report_piece_count(rep, k); p++) {
        int pa, pb;
        hs_status ps;
        double w[3], d;
        hs_report_piece(rep, k, p, &pa, &pb, &ps, w, &d);
        json_object_open(j);
        json_key(j, "piece_a");
        json_integer(j, pa);
        json_key(j, "piece_b");
        json_integer(j, pb);
        json_key(j, "status");
        json_string(j, hs_status_name(ps));
        json_key(j, "witness");
        json_numbers(j, w, 3);
        json_key(j, "distance");
        json_number(j, d);
        json_object_close(j);
    }
    json_array_close(j);
}

static void report_json_contacts(json_emit *j, const hs_report *rep, int k)
{
    json_array_open(j);
    for (int c = 0; c < hs_report_contact_count(rep, k); c++) {
        double on_a[3], on_b[3], nrm[3];
        hs_report_contact(rep, k, c, on_a, on_b, nrm);
        json_object_open(j);
        json_key(j, "on_a");
        json_numbers(j, on_a, 3);
        json_key(j, "on_b");
        json_numbers(j, on_b, 3);
        json_key(j, "normal");
        json_numbers(j, nrm, 3);
        json_object_close(j);
    }
    json_array_close(j);
}

void report_json_pair(json_emit *j, const hs_report *rep, int k)
{
    const char *a, *b;
    hs_status st;
    hs_report_pair(rep, k, &a, &b, &st);
    json_object_open(j);
    json_key(j, "a");
    json_string(j, a);
    json_key(j, "b");
    json_string(j, b);
    json_key(j, "status");
    json_string(j, hs_status_name(st));
    json_key(j, "pieces");
    report_json_pieces(j, rep, k);
    json_key(j, "contacts");
    report_json_contacts(j, rep, k);
    json_object_close(j);
}

void report_json_pairs(json_emit *j, const hs_report *rep, const char *body)
{
    json_array_open(j);
    for (int k = 0; k < hs_report_pair_count(rep); k++)
        if (!body || cli_report_pair_has_body(rep, k, body))
            report_json_pair(j, rep, k);
    json_array_close(j);
}
