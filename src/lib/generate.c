/* generate.c - random legal games: each engine lists its legal actions and
 * the generator picks uniformly among them until the game is over. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

static void free_list(const hg_game_class *cls, hg_action_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		cls->free_action(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

hg_game_record *hg_generate(hg_session *s, const hg_game_class *cls,
			    const char *seed, unsigned players,
			    const char *variant, hg_diags *d)
{
	hg_game_record *rec = hg_record_new("<generated>");
	hg_record_set_tag(rec, "Game", cls->id);
	const hg_game_class *found;
	const hg_gdata *data;
	if (hg_session_prepare(s, rec, &found, &data, d) != 0) {
		hg_record_free(rec);
		return NULL;
	}

	/* The set-up (and with it the Seed the game's chance follows) comes
	 * from the stream "<seed>"; the choice of actions from "<seed>/moves". */
	hg_prng r;
	hg_prng_seed(&r, seed);
	if (cls->gen_tags(data, &r, players, variant, rec, d) != 0) {
		hg_record_free(rec);
		return NULL;
	}
	if (!hg_record_tag(rec, "Date"))
		hg_record_set_tag(rec, "Date", "????.??.??");
	hg_record_set_tag(rec, "Result", "*");

	hg_state *st = cls->setup(data, rec, d);
	if (!st) {
		hg_record_free(rec);
		return NULL;
	}
	hg_buf moves_seed, seat, body;
	hg_buf_init(&moves_seed);
	hg_buf_init(&seat);
	hg_buf_init(&body);
	hg_buf_printf(&moves_seed, "%s/moves", seed);
	hg_prng_seed(&r, moves_seed.data);
	hg_buf_free(&moves_seed);

	hg_pos pos = { rec->file, 0, 0 };
	unsigned last_turn = 0;
	int failed = 0;
	for (size_t count = 0; !cls->result(st); count++) {
		if (count >= HG_MAX_ACTIONS) {
			hg_diag_add(d, HG_ERROR, pos, "hgn.too-many-actions",
				    "the generated game did not end within %d actions",
				    HG_MAX_ACTIONS);
			failed = 1;
			break;
		}
		unsigned turn = cls->turn(st);
		if (turn != last_turn) {
			hg_line_push(&rec->moves, HG_NODE_MOVENUM, pos)->number = turn;
			last_turn = turn;
		}
		hg_action_list legal = { 0 };
		cls->legal(st, &legal);
		if (legal.n == 0) {
			hg_diag_add(d, HG_ERROR, pos, "hgn.no-legal-action",
				    "internal error: %s lists no legal action in a game that is not over",
				    cls->id);
			free_list(cls, &legal);
			failed = 1;
			break;
		}
		hg_action *a = legal.v[hg_prng_below(&r, (uint32_t)legal.n)];
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		cls->format(st, a, &seat, &body);
		hg_node *n = hg_line_push(&rec->moves, HG_NODE_ACTION, pos);
		if (hg_action_text_set(&n->action, seat.data ? seat.data : "",
				       body.data ? body.data : "", pos, d) != 0 ||
		    cls->apply(st, a, d) != 0) {
			hg_diag_add(d, HG_ERROR, pos, "hgn.generator",
				    "internal error: %s listed '%s: %s' as legal but rejects it",
				    cls->id, seat.data ? seat.data : "", body.data ? body.data : "");
			free_list(cls, &legal);
			failed = 1;
			break;
		}
		free_list(cls, &legal);
	}
	if (!failed) {
		hg_record_set_tag(rec, "Result", cls->result(st));
		free(rec->result);
		rec->result = hg_xstrdup(cls->result(st));
	}
	cls->free_state(st);
	hg_buf_free(&seat);
	hg_buf_free(&body);
	if (failed) {
		hg_record_free(rec);
		return NULL;
	}
	return rec;
}
