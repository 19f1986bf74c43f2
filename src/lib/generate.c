/* generate.c - random legal games: each engine lists its legal actions and
 * the generator picks uniformly among them until the game is over. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine-call.h"
#include "internal.h"

static void free_list(const hg_game_class *cls, hg_action_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		cls->free_action(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof *l);
}

/* Short of memory inside hg_generate's unit of work (util.c), each step
 * stops, and the game is dropped. */
static hg_game_record *generate(hg_session *s, const hg_game_class *cls,
				const char *seed, unsigned players,
				const char *variant, hg_diags *d)
{
	hg_game_record *rec = hg_record_try_new("<generated>");
	if (!rec)
		return NULL;
	const hg_game_class *found;
	const hg_gdata *data;
	if (hg_record_try_set_tag(rec, "Game", cls->id) != 0 ||
	    hg_session_prepare(s, rec, &found, &data, d) != 0) {
		hg_record_free(rec);
		return NULL;
	}

	/* The set-up (and with it the Seed the game's chance follows) comes
	 * from the stream "<seed>"; the choice of actions from "<seed>/moves". */
	hg_prng r;
	hg_prng_seed(&r, seed);
	int rc = hg_engine_gen_tags(cls, data, &r, players, variant, rec, d);
	if (rc != 0 ||
	    (!hg_record_tag(rec, "Date") && hg_record_try_set_tag(rec, "Date", "????.??.??") != 0) ||
	    hg_record_try_set_tag(rec, "Result", "*") != 0) {
		hg_record_free(rec);
		return NULL;
	}

	hg_state *st = hg_engine_setup(cls, data, rec, d);
	if (!st) {
		hg_record_free(rec);
		return NULL;
	}
	hg_buf moves_seed, seat, body;
	hg_buf_init(&moves_seed);
	hg_buf_init(&seat);
	hg_buf_init(&body);
	hg_buf_printf(&moves_seed, "%s/moves", seed);
	hg_prng_seed(&r, moves_seed.data ? moves_seed.data : "");	/* ("": reported) */
	hg_buf_free(&moves_seed);

	hg_pos pos = { rec->file, 0, 0 };
	unsigned last_turn = 0;
	int failed = 0;
	for (size_t count = 0; !cls->result(st); count++) {
		if (hg_alloc_lost()) {
			failed = 1;
			break;
		}
		if (count >= HG_MAX_ACTIONS) {
			hg_diag_add(d, HG_ERROR, pos, "hgn.too-many-actions",
				    "the generated game did not end within %d actions",
				    HG_MAX_ACTIONS);
			failed = 1;
			break;
		}
		unsigned turn = cls->turn(st);
		if (turn != last_turn) {
			hg_node *n = hg_line_try_push(&rec->moves, HG_NODE_MOVENUM, pos);
			if (!n) {
				failed = 1;
				break;
			}
			n->number = turn;
			last_turn = turn;
		}
		hg_action_list legal = { 0 };
		if (hg_engine_legal(cls, st, &legal) != 0) {
			free_list(cls, &legal);
			failed = 1;
			break;
		}
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
		hg_node *n = hg_engine_format(cls, st, a, &seat, &body) != 0 ? NULL :
			hg_line_try_push(&rec->moves, HG_NODE_ACTION, pos);
		if (!n) {
			free_list(cls, &legal);
			failed = 1;
			break;
		}
		rc = hg_action_text_set(&n->action, seat.data ? seat.data : "",
					body.data ? body.data : "", pos, d);
		if (rc == 0)
			rc = hg_engine_apply(cls, st, a, d);
		if (rc != 0) {
			if (hg_alloc_lost()) {	/* not the engine's fault */
				free_list(cls, &legal);
				failed = 1;
				break;
			}
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
		free(rec->result);
		rec->result = hg_try_strdup(cls->result(st));
		failed = !rec->result || hg_record_try_set_tag(rec, "Result", cls->result(st)) != 0;
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

/* A unit of work (util.c): short of memory, NULL with the diagnostic
 * hg.out-of-memory. */
hg_game_record *hg_generate(hg_session *s, const hg_game_class *cls,
			    const char *seed, unsigned players,
			    const char *variant, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	hg_game_record *rec = generate(s, cls, seed, players, variant, d);
	if (hg_alloc_unit_end(&u, d, ndiags, (hg_pos){ NULL, 0, 0 }) == HG_ENOMEM) {
		hg_record_free(rec);
		return NULL;
	}
	return rec;
}
