/* replay-walk.c - the replay of one game as steps in the record's order:
 * each action with the comments around it, the position after it and the
 * diagnostics about it, the illegal action in its place (the engine's
 * replay calls back only after a legal one). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "replay.h"

typedef struct walk {
	replay_step *steps;		/* every action of the record, in order */
	size_t n, cap;
	size_t cursor;			/* the next step not yet given to the sink */
	hg_session *session;
	hg_diags *d;
	size_t *shown;			/* per diagnostic: 1 once given out */
	size_t nshown;
	size_t first_unshown;		/* those before it are all given out */
	int errors_only;		/* the others are given to nobody */
	const replay_sink *sink;
	const hg_game_record *g;
	const hg_game_class *cls;
	int started;
} walk;

static const char *const glyph_words[][2] = {
	{ "!", "a good move" }, { "?", "a mistake" }, { "!!", "a very good move" },
	{ "??", "a blunder" }, { "!?", "an interesting move" }, { "?!", "a dubious move" },
};

/* The first NAGs of PGN's table; the rest name chess's sides and mean
 * nothing here. */
static const char *const nag_words[] = {
	"no annotation", "a good move", "a mistake", "a very good move", "a blunder",
	"an interesting move", "a dubious move", "a forced move", "the only move",
	"the worst move", "an even position", "equal chances, a quiet position",
	"equal chances, an open position", "an unclear position",
};

const char *replay_glyph_words(const char *glyph)
{
	for (size_t i = 0; glyph && i < sizeof glyph_words / sizeof glyph_words[0]; i++)
		if (strcmp(glyph, glyph_words[i][0]) == 0)
			return glyph_words[i][1];
	return NULL;
}

const char *replay_nag_words(unsigned nag)
{
	return nag < sizeof nag_words / sizeof nag_words[0] ? nag_words[nag] : NULL;
}

static void push_node(const hg_node ***v, size_t *n, const hg_node *node)
{
	*v = cli_xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = node;
}

static replay_step *add_step(walk *w, const hg_node *node)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->steps = cli_xrealloc(w->steps, w->cap * sizeof *w->steps);
	}
	replay_step *st = &w->steps[w->n];
	memset(st, 0, sizeof *st);
	st->node = node;
	w->n++;
	return st;
}

static void action_label(hg_buf *b, const hg_node *n)
{
	hg_buf_printf(b, "%s: %s%s", n->action.seat ? n->action.seat : "",
		      n->action.text ? n->action.text : "", n->glyph ? n->glyph : "");
}

/* Walks the record in the order the replay visits it, grouping the
 * comments with the actions. */
static void collect(walk *w, const hg_line *line, unsigned depth, unsigned ply, const char *file,
		    unsigned *nvar)
{
	const hg_node **pending = NULL;
	size_t npending = 0;
	long last = -1;			/* the line's last step */
	const hg_node *last_action = NULL;
	unsigned movenum = 0;
	for (size_t i = 0; i < line->n; i++) {
		const hg_node *n = &line->nodes[i];
		switch (n->kind) {
		case HG_NODE_MOVENUM:
			movenum = n->number;
			break;
		case HG_NODE_COMMENT:
		case HG_NODE_NAG:
			push_node(&pending, &npending, n);
			break;
		case HG_NODE_ACTION: {
			replay_step *st = add_step(w, n);
			st->depth = depth;
			st->ply = ++ply;
			st->movenum = movenum;
			st->before = pending;
			st->nbefore = npending;
			pending = NULL;
			npending = 0;
			movenum = 0;
			/* what is written right after it is its own */
			while (i + 1 < line->n && (line->nodes[i + 1].kind == HG_NODE_COMMENT ||
						   line->nodes[i + 1].kind == HG_NODE_NAG))
				push_node(&st->after, &st->nafter, &line->nodes[++i]);
			last = (long)(w->n - 1);
			last_action = n;
			break;
		}
		case HG_NODE_VARIATION: {
			hg_buf b;
			hg_buf_init(&b);
			hg_buf_printf(&b, "variation %u", ++*nvar);
			if (last_action) {
				hg_buf_puts(&b, ", instead of ");
				action_label(&b, last_action);
				hg_buf_puts(&b, " (");
				cli_put_place(&b, file, last_action->pos.line);
				hg_buf_putc(&b, ')');
			}
			hg_buf_putc(&b, ':');
			size_t first = w->n;
			collect(w, n->variation, depth + 1, last_action ? ply - 1 : ply, file, nvar);
			if (w->n > first && !w->steps[first].label) {
				cli_buf_check(&b);
				w->steps[first].label = hg_buf_steal(&b);
			}
			hg_buf_free(&b);
			break;
		}
		}
	}
	/* What ends the line goes with its last action. */
	if (last >= 0)
		for (size_t k = 0; k < npending; k++)
			push_node(&w->steps[last].after, &w->steps[last].nafter, pending[k]);
	free(pending);
}

static int pos_before(const hg_diag *dg, const hg_pos *p)
{
	return dg->line < p->line || (dg->line == p->line && dg->col < p->col);
}

/* The diagnostics not yet given out that come before `limit` in the record
 * (all of them when limit is NULL); those without a line, or about another
 * file (a data file), go with the first taker. */
static const hg_diag **take_diags(walk *w, const hg_pos *limit, size_t *n)
{
	if (w->nshown < w->d->n) {
		w->shown = cli_xrealloc(w->shown, w->d->n * sizeof *w->shown);
		memset(w->shown + w->nshown, 0, (w->d->n - w->nshown) * sizeof *w->shown);
		w->nshown = w->d->n;
	}
	const hg_diag **v = NULL;
	*n = 0;
	for (size_t i = w->first_unshown; i < w->d->n; i++) {
		const hg_diag *dg = &w->d->v[i];
		int placed = dg->line && dg->file && w->g->file && strcmp(dg->file, w->g->file) == 0;
		if (w->shown[i] || (limit && placed && pos_before(dg, limit) == 0))
			continue;
		w->shown[i] = 1;
		if (w->errors_only && dg->severity != HG_ERROR)
			continue;
		v = cli_xrealloc(v, (*n + 1) * sizeof *v);
		v[(*n)++] = dg;
	}
	while (w->first_unshown < w->nshown && w->shown[w->first_unshown])
		w->first_unshown++;
	return v;
}

/* Where the next step begins: what is before it belongs to what came
 * before. */
static const hg_pos *next_limit(const walk *w, size_t k)
{
	return k + 1 < w->n ? &w->steps[k + 1].node->pos : NULL;
}

static void start(walk *w)
{
	if (w->started)
		return;
	w->started = 1;
	size_t nd;
	const hg_diag **dv = take_diags(w, w->n ? &w->steps[0].node->pos : NULL, &nd);
	hg_state *st = NULL;
	hg_diags scratch;
	hg_diags_init(&scratch);
	const hg_gdata *data;
	const hg_game_class *cls = NULL;
	if (hg_session_prepare(w->session, w->g, &cls, &data, &scratch) == 0)
		st = hg_state_setup(cls, data, w->g, &scratch);
	if (!st && cli_ran_out_of_memory(&scratch))
		cli_out_of_memory();
	hg_diags_free(&scratch);
	w->sink->start(w->sink->ctx, w->g, cls, st, dv, nd);
	if (st)
		cls->free_state(st);
	free(dv);
}

/* Gives the sink the steps before step `upto` that the replay passed
 * over: the illegal action of a line (the one an error is about); the
 * actions after it, and variations whose branch was never reached, were
 * not replayed and are not shown. */
static void skip_to(walk *w, size_t upto)
{
	for (; w->cursor < upto; w->cursor++) {
		replay_step *st = &w->steps[w->cursor];
		st->after_state = NULL;
		st->diags = take_diags(w, next_limit(w, w->cursor), &st->ndiags);
		for (size_t i = 0; i < st->ndiags; i++)
			if (st->diags[i]->severity == HG_ERROR)
				st->illegal = 1;
		if (st->illegal)
			w->sink->step(w->sink->ctx, w->cls, st);
	}
}

static void after_action(void *ctx, const hg_game_class *cls, const hg_node *node,
			 const hg_state *after, unsigned depth)
{
	(void)depth;
	walk *w = ctx;
	w->cls = cls;
	start(w);
	size_t k = w->cursor;
	while (k < w->n && w->steps[k].node != node)
		k++;
	if (k == w->n)
		return;		/* not a step of this record: cannot happen */
	skip_to(w, k);
	replay_step *st = &w->steps[k];
	st->after_state = after;
	st->diags = take_diags(w, next_limit(w, k), &st->ndiags);
	w->sink->step(w->sink->ctx, cls, st);
	w->cursor = k + 1;
}

int replay_walk(hg_session *session, const hg_game_record *g, hg_diags *d,
		const replay_sink *sink, int errors_only)
{
	walk w;
	memset(&w, 0, sizeof w);
	w.errors_only = errors_only;
	w.d = d;
	w.session = session;
	w.sink = sink;
	w.g = g;
	unsigned nvar = 0;
	collect(&w, &g->moves, 0, 0, g->file ? g->file : "-", &nvar);
	hg_replay_hooks hooks = { after_action, &w };
	hg_state *final = NULL;
	const hg_game_class *cls = NULL;
	int rc = hg_check_game(session, g, d, &hooks, NULL, &final, &cls);
	if (rc == HG_ENOMEM)
		cli_note_out_of_memory();
	if (rc != 0 || d->nerrors)
		rc = -1;
	w.cls = cls;
	start(&w);
	if (cls)
		skip_to(&w, w.n);
	size_t nd;
	const hg_diag **dv = take_diags(&w, NULL, &nd);
	sink->end(sink->ctx, g, cls, final, dv, nd);
	free(dv);
	if (final && cls)
		cls->free_state(final);
	for (size_t i = 0; i < w.n; i++) {
		free(w.steps[i].label);
		free(w.steps[i].before);
		free(w.steps[i].after);
		free(w.steps[i].diags);
	}
	free(w.steps);
	free(w.shown);
	return rc;
}
