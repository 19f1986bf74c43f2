/* select-game.c - one game against a selection's criteria: its tags, its
 * verdict and diagnostics (from a replay, only when asked), its main
 * line's actions in canonical spelling (from its set-up alone: a game's
 * parse() consults no position), and the hash of those actions for
 * --unique. */
#include "config.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

/* The verdict and diagnostics of a replay, as `herald check` gives them. */
static int verdict_match(const select_spec *s, hg_session *session,
			 const hg_game_record *rec, hg_diags *d)
{
	hg_check_result res;
	int rc = hg_check_game(session, rec, d, NULL, &res, NULL, NULL);
	if (rc == HG_ENOMEM)
		cli_note_out_of_memory();
	cli_game_status status = rc != 0 || d->nerrors ? CLI_ILLEGAL :
				 d->nunverified ? CLI_UNVERIFIED : CLI_LEGAL;
	if (s->verdicts && !(s->verdicts & (1u << status)))
		return 0;
	if (s->ncodes == 0)
		return 1;
	for (size_t i = 0; i < d->n; i++)
		for (size_t k = 0; k < s->ncodes; k++)
			if (d->v[i].code && strcmp(d->v[i].code, s->codes[k]) == 0)
				return 1;
	return 0;
}

/* What the walk over the main line's actions finds. */
typedef struct action_walk {
	const select_spec *s;
	select_scratch *sc;
	unsigned char *found;		/* per --action: matched by some action */
	int limit;
	int seat_acted;			/* --seat alone: the seat has an action */
	hg_buf hashed;			/* --unique: what the hash is of, hashed
					   at once (an update per piece cost more) */
} action_walk;

static void walk_one(action_walk *w, int seat_ok, const char *seat, const char *body)
{
	if (w->s->unique) {
		hg_buf_puts(&w->hashed, seat);
		hg_buf_puts(&w->hashed, ": ");
		hg_buf_puts(&w->hashed, body);
		hg_buf_putc(&w->hashed, '\n');
	}
	if (!seat_ok)
		return;
	w->seat_acted = 1;
	for (size_t i = 0; i < w->s->nactions; i++) {
		if (w->found[i])
			continue;
		int m = select_regex_match(w->s->actions[i], body, w->sc);
		if (m > 0)
			w->found[i] = 1;
		else if (m < 0)
			w->limit = 1;
	}
}

/* The seat `name` names (also by its player's name), or -1. */
static int seat_of(const hg_game_class *cls, const hg_state *st, const char *name)
{
	return st ? hg_seat_index(cls, st, name) : -1;
}

/* Walks the main line: each action canonical where the game reads it (as
 * written where it does not, or where the game is unknown). */
static void walk_actions(action_walk *w, hg_session *session, const hg_game_record *rec)
{
	hg_diags quiet;	/* the replay, or `check`, reports what is wrong */
	hg_diags_init(&quiet);
	const hg_game_class *cls = NULL;
	const hg_gdata *data = NULL;
	hg_state *st = NULL;
	if (hg_session_prepare(session, rec, &cls, &data, &quiet) == 0)
		st = hg_state_setup(cls, data, rec, &quiet);
	if (!st && cli_ran_out_of_memory(&quiet))
		cli_out_of_memory();
	const char *game = cls ? cls->id : hg_record_tag_value(rec, "Game");
	if (w->s->unique) {
		/* the game's id, then its actions one a line */
		hg_buf_puts(&w->hashed, game ? game : "");
		hg_buf_putc(&w->hashed, '\n');
	}
	int want_seat = -1;
	if (w->s->seat)
		want_seat = seat_of(cls, st, w->s->seat);
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	for (size_t i = 0; i < rec->moves.n; i++) {
		const hg_node *n = &rec->moves.nodes[i];
		if (n->kind != HG_NODE_ACTION)
			continue;
		const hg_action_text *t = &n->action;
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		hg_action *a = NULL;
		if (st && !hg_action_is_resign(t))
			a = hg_action_parse(cls, st, t, &quiet);
		if (!a && cli_ran_out_of_memory(&quiet))
			cli_out_of_memory();
		if (a) {
			cls->format(st, a, &seat, &body);
			cls->free_action(a);
		} else {
			int k = st ? hg_seat_index(cls, st, t->seat) : -1;
			hg_buf_puts(&seat, k >= 0 ? cls->seat_name(st, (unsigned)k) : t->seat);
			hg_buf_puts(&body, t->text ? t->text : "");
		}
		int seat_ok = 1;
		if (w->s->seat)
			/* by the seat's own name (also a side no player holds,
			 * which seat_find does not know), else as the game
			 * names seats (a player's name) */
			seat_ok = hg_name_eq(seat.data ? seat.data : "", w->s->seat) ||
				  (want_seat >= 0 && seat_of(cls, st, seat.data) == want_seat);
		walk_one(w, seat_ok, seat.data ? seat.data : "", body.data ? body.data : "");
		hg_diags_clear(&quiet);
	}
	hg_buf_free(&seat);
	hg_buf_free(&body);
	if (st)
		cls->free_state(st);
	hg_diags_free(&quiet);
}

/* --position: does some position of the main line, after one of its
 * actions, hold every fact at once? */
typedef struct position_walk {
	const select_spec *s;
	hg_buf value;
	int found;
} position_walk;

static void after_action(void *ctx, const hg_game_class *cls, const hg_node *node,
			 const hg_state *after, unsigned depth)
{
	position_walk *w = ctx;
	(void)node;
	if (depth != 0 || w->found)
		return;
	for (size_t i = 0; i < w->s->npositions; i++)
		if (!select_position_holds(&w->s->positions[i], cls, after, &w->value))
			return;
	w->found = 1;
}

static int position_match(const select_spec *s, hg_session *session, const hg_game_record *rec)
{
	position_walk w = { s, { 0 }, 0 };
	hg_buf_init(&w.value);
	hg_replay_hooks hooks = { after_action, &w };
	hg_diags quiet;	/* the verdict is asked apart (verdict_match) */
	hg_diags_init(&quiet);
	hg_check_result res;
	if (hg_check_game(session, rec, &quiet, &hooks, &res, NULL, NULL) == HG_ENOMEM)
		cli_note_out_of_memory();
	hg_diags_free(&quiet);
	hg_buf_free(&w.value);
	return w.found;
}

void select_game(const select_spec *s, hg_session *session, const hg_game_record *rec,
		 select_scratch *sc, hg_diags *d, select_outcome *out)
{
	memset(out, 0, sizeof *out);
	int m = select_tags_match(s, rec, sc);
	if (m < 0)
		out->limit = 1;
	int matched = m > 0;
	int need_actions = s->nactions > 0 || s->seat || s->unique;
	if (need_actions && (matched || s->invert)) {
		action_walk w;
		memset(&w, 0, sizeof w);
		w.s = s;
		w.sc = sc;
		unsigned char found[64];
		w.found = s->nactions <= sizeof found ? found : cli_xmalloc(s->nactions);
		memset(w.found, 0, s->nactions);
		hg_buf_init(&w.hashed);
		walk_actions(&w, session, rec);
		for (size_t i = 0; i < s->nactions; i++)
			if (!w.found[i])
				matched = 0;
		if (s->seat && s->nactions == 0 && !w.seat_acted)
			matched = 0;
		if (w.limit)
			out->limit = 1;
		if (s->unique) {
			crypto_generichash(out->hash, SELECT_HASH_BYTES,
					   (const unsigned char *)w.hashed.data, w.hashed.len, NULL, 0);
			out->hashed = 1;
		}
		hg_buf_free(&w.hashed);
		if (w.found != found)
			free(w.found);
	}
	if (matched && s->npositions)
		matched = position_match(s, session, rec);
	if (matched && (s->verdicts || s->ncodes))
		matched = verdict_match(s, session, rec, d);
	out->matched = matched;
}
