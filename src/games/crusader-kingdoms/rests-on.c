/* rests-on.c - the note that a verdict rests on a reconstructed value of
 * the map (herald-data(5)): the rule text prints one shield and two
 * borders, and a director who voids a game must know when the verdict
 * rests on one herald reconstructed. */
#include "config.h"

#include "ck.h"

void ck_rests_on_area(hg_diag *dg, const hg_state *s, int area, const char *what)
{
	hg_buf datum;
	hg_buf_init(&datum);
	hg_buf_printf(&datum, "areas.%s.%s", s->map->areas[area].id, what);
	hg_diag_rests_on(dg, &s->data->provs, s->map->file, datum.data);
	hg_buf_free(&datum);
}
