/* view.c - seat views: a record as one seat may see it.  The master record
 * is replayed on its main line; each action is written again as the game's
 * view_action writes it for the seat (other seats' hidden cards as '?',
 * the seat's own cards named).  What the view keeps and drops of the
 * record is said in herald.h and herald-view(1).
 *
 * hg_view_seat and hg_view_record are units of work (util.c): short of
 * memory they free what they built and report it; the engine's callbacks
 * run as the core runs them (engine-call.h; view_action paused). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine-call.h"
#include "internal.h"

/* Seed gives every card and die: a view without it shows only what the
 * actions show.  (The secret of a committed seed is never in a record.) */
const char *const hg_view_withheld_tags[] = { "Seed", "DeckOrder", NULL };

static int withheld(const char *tag)
{
	for (size_t i = 0; hg_view_withheld_tags[i]; i++)
		if (strcmp(tag, hg_view_withheld_tags[i]) == 0)
			return 1;
	return 0;
}

static int views_supported(const hg_game_class *cls, const hg_game_record *rec,
			   hg_diags *d)
{
	if (cls->seat_find && cls->seat_name && cls->view_action && cls->names_chance)
		return 1;
	hg_diag_add(d, HG_ERROR, rec->pos, "view.unsupported",
		    "the game '%s' has no seat views", cls->id);
	return 0;
}

static int view_seat(hg_session *s, const hg_game_record *rec, const char *name,
		     unsigned *seat, hg_diags *d)
{
	const hg_game_class *cls;
	const hg_gdata *data;
	if (hg_session_prepare(s, rec, &cls, &data, d) != 0 || !views_supported(cls, rec, d))
		return -1;
	hg_state *st = hg_engine_setup(cls, data, rec, d);
	if (!st)
		return -1;
	int found = cls->seat_find(st, name);
	if (found < 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, rec->pos, "view.unknown-seat",
					  "'%s' is no seat a player holds in this game", name);
		hg_buf b;
		hg_buf_init(&b);
		const char *seat_name;
		for (unsigned i = 0; (seat_name = cls->seat_name(st, i)) != NULL; i++)
			hg_buf_printf(&b, "%s%s", i ? ", " : "", seat_name);
		if (b.len)
			hg_diag_note(dg, "the players' seats are %s", b.data);
		hg_buf_free(&b);
	} else {
		*seat = (unsigned)found;
	}
	cls->free_state(st);
	return found < 0 ? -1 : 0;
}

int hg_view_seat(hg_session *s, const hg_game_record *rec, const char *name,
		 unsigned *seat, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = view_seat(s, rec, name, seat, d);
	return hg_alloc_unit_end(&u, d, ndiags, rec->pos) == HG_ENOMEM ? HG_ENOMEM : rc;
}

static void no_view(const hg_game_record *rec, hg_diags *d)
{
	hg_diag_add(d, HG_ERROR, rec->pos, "view.illegal",
		    "no view is made of a record whose main line is not legal");
}

/* Applies the action of node n to st and appends it to `out` as `seat`
 * sees it: 0, or -1 after diagnostics (st is then spoiled). */
static int view_one(const hg_game_class *cls, hg_state *st, const hg_node *n,
		    unsigned seat, hg_line *out, hg_buf *seat_buf, hg_buf *body,
		    hg_diags *d)
{
	/* A resignation (the core's action in every game, herald-notation(5)
	 * ENDINGS) is public and ends the main line: it is copied. */
	if (hg_action_is_resign(&n->action)) {
		hg_node *v = hg_line_try_push(out, HG_NODE_ACTION, n->pos);
		return v ? hg_action_text_set(&v->action, n->action.seat, "resign", n->pos, d) : -1;
	}
	hg_action *a = hg_engine_parse(cls, st, &n->action, d);
	if (!a)
		return -1;
	hg_state *before = hg_engine_clone(cls, st);
	int rc = -1;
	if (before)
		rc = hg_engine_apply(cls, st, a, d);
	if (rc == 0) {
		hg_buf_clear(seat_buf);
		hg_buf_clear(body);
		hg_node *v = hg_engine_view_action(cls, before, st, a, seat, seat_buf, body) != 0 ?
			NULL : hg_line_try_push(out, HG_NODE_ACTION, n->pos);
		rc = v ? hg_action_text_set(&v->action, seat_buf->data ? seat_buf->data : "",
					    body->data ? body->data : "", n->pos, d) : -1;
		if (v && n->glyph && !(v->glyph = hg_try_strdup(n->glyph)))
			rc = -1;
	}
	cls->free_action(a);
	if (before)
		cls->free_state(before);
	return rc;
}

/* hg_view_record's work, in its unit: the view (or NULL), which the caller
 * frees when memory ran out. */
static hg_game_record *view_record(hg_session *s, const hg_game_record *rec, unsigned seat,
				   hg_diags *d)
{
	const hg_game_class *cls;
	const hg_gdata *data;
	if (hg_session_prepare(s, rec, &cls, &data, d) != 0 || !views_supported(cls, rec, d))
		return NULL;
	size_t errors_before = d->nerrors;
	/* A view is made only of a legal record, and check refuses a record
	 * whose seed tags break the fairness scheme before any action. */
	if (hg_fair_check(rec, d) != 0) {
		no_view(rec, d);
		return NULL;
	}
	hg_state *st = hg_engine_setup(cls, data, rec, d);
	if (!st) {
		no_view(rec, d);
		return NULL;
	}

	hg_game_record *view = hg_record_try_new(rec->file);
	if (!view) {
		cls->free_state(st);
		return NULL;
	}
	view->pos = rec->pos;
	view->pos.file = view->file;
	int bad = 0;
	for (size_t i = 0; i < rec->ntags && !bad; i++)
		if (!withheld(rec->tags[i].name))
			bad = hg_record_try_set_tag(view, rec->tags[i].name, rec->tags[i].value) != 0;
	if (rec->result) {
		view->result = hg_try_strdup(rec->result);
		view->result_pos = rec->result_pos;
		bad |= !view->result;
	}

	hg_buf seat_buf, body;
	hg_buf_init(&seat_buf);
	hg_buf_init(&body);
	size_t actions = 0;
	for (size_t i = 0; i < rec->moves.n && !bad; i++) {
		const hg_node *n = &rec->moves.nodes[i];
		switch (n->kind) {
		case HG_NODE_MOVENUM:
		case HG_NODE_NAG: {
			hg_node *v = hg_line_try_push(&view->moves, n->kind, n->pos);
			if (v)
				v->number = n->number;
			bad = !v;
			break;
		}
		case HG_NODE_COMMENT:
		case HG_NODE_VARIATION:
			break;	/* may name hidden cards: never in a view */
		case HG_NODE_ACTION:
			if (cls->result(st)) {
				hg_diag_add(d, HG_ERROR, n->pos, "hgn.after-end",
					    "action after the end of the game");
				bad = 1;
			} else if (++actions > HG_MAX_ACTIONS) {
				hg_diag_add(d, HG_ERROR, n->pos, "hgn.too-many-actions",
					    "more than %d actions in one game", HG_MAX_ACTIONS);
				bad = 1;
			} else {
				bad = view_one(cls, st, n, seat, &view->moves, &seat_buf, &body,
					       d) != 0;
			}
			break;
		}
	}
	hg_buf_free(&seat_buf);
	hg_buf_free(&body);
	cls->free_state(st);
	if (bad || d->nerrors > errors_before) {
		no_view(rec, d);
		hg_record_free(view);
		return NULL;
	}
	return view;
}

hg_game_record *hg_view_record(hg_session *s, const hg_game_record *rec,
			       unsigned seat, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	hg_game_record *view = view_record(s, rec, seat, d);
	if (hg_alloc_unit_end(&u, d, ndiags, rec->pos) == HG_ENOMEM) {
		hg_record_free(view);
		return NULL;
	}
	return view;
}
