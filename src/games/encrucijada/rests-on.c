/* rests-on.c - the note that a verdict rests on a reconstructed value of
 * a card (herald-data(5)): the rule text prints no card, so a cost, a
 * resource or an effect that decides a verdict is herald's, unless the
 * record's own card files mark it published. */
#include "config.h"

#include "enc.h"

void enc_rests_on(hg_diag *dg, const hg_gdata *g, int card, const char *what)
{
	const enc_card *c = &g->pool.cards[card];
	hg_buf datum;
	hg_buf_init(&datum);
	hg_buf_printf(&datum, "%s.%s.%s", c->tower ? "towers" : "cards", c->id, what);
	/* card and tower ids are unique in a pool: any file */
	hg_diag_rests_on(dg, &g->pool.provs, NULL, datum.data);
	hg_buf_free(&datum);
}

void enc_rests_on_town(hg_diag *dg, const hg_state *s, int seat)
{
	const enc_player *p = &s->p[seat];
	if (s->data->pool.cards[p->tower].nprovides)
		enc_rests_on(dg, s->data, p->tower, "resources");
	for (enc_set town = p->in_zone[ENC_Z_TOWN]; town; town &= town - 1) {
		int card = p->inst[enc_set_first(town)].card;
		if (s->data->pool.cards[card].nprovides)
			enc_rests_on(dg, s->data, card, "resources");
	}
}
